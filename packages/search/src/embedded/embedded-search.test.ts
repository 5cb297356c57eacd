import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { openEmbeddedStore, type StoreDocument } from '@vrs/store';
import { runModuleToExit } from '@vrs/testing/processes';
import { makeTempDir } from '@vrs/testing/temp-dir';
import { openEmbeddedSearch } from './embedded-search';

describe('openEmbeddedSearch', () => {
  it('never keeps its process alive while no call is outstanding', { timeout: 120_000 }, async () => {
    const dir = makeTempDir('vrs-embedded-search-');
    const searchModule = new URL('./embedded-search.ts', import.meta.url).pathname;
    // Opened and never called (a service that started and had no search to answer), then left
    // open: the process must still end by itself.
    const source = `import { openEmbeddedSearch } from ${JSON.stringify(searchModule)};
openEmbeddedSearch(${JSON.stringify(join(dir, 'index'))});`;
    // A tsx child starts in about 2 s alone and took over 20 s at a load average of 20: a wide limit.
    expect(await runModuleToExit(source, dir, 100_000)).toEqual({ code: 0, signal: null });
  });

  // Linux keeps a nice value per thread (/proc/self/task/<id>/stat, field 19); the main thread's id is the process's.
  it.runIf(process.platform === 'linux')(
    'runs its worker thread the given steps below the CPU priority of the event loop (ADR 0068)',
    async () => {
      const niceOf = (task: string) => {
        let stat: string;
        try {
          stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
        } catch {
          // The thread ended after the directory was read.
          return Number.NaN;
        }
        // Fields after the command name, which is in parentheses and may hold spaces.
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      };
      const own = niceOf(String(process.pid));
      // Counted against the threads already there, whatever else this process runs.
      const threadsAt = (nice: number) => readdirSync('/proc/self/task').filter((task) => niceOf(task) === nice).length;
      const lowerNice = Math.min(19, own + 7);
      const dir = makeTempDir('vrs-embedded-search-');

      const loweredBefore = threadsAt(lowerNice);
      const level = openEmbeddedSearch(join(dir, 'level'));
      // Its worker runs once it has answered.
      expect(await level.version('project')).toBe(0);
      expect(threadsAt(lowerNice)).toBe(loweredBefore);
      await level.close();

      const lowered = openEmbeddedSearch(join(dir, 'lowered'), { threadNice: 7 });
      expect(await lowered.version('project')).toBe(0);
      // The worker, and the threads it started (libsql's, when it is the first to load it).
      expect(threadsAt(lowerNice)).toBeGreaterThan(loweredBefore);
      expect(niceOf(String(process.pid))).toBe(own);
      expect(getPriority(0)).toBe(own);
      await lowered.close();
    },
  );

  // Worker threads are counted as the threads of this process (Linux's /proc): each is one.
  it.runIf(existsSync('/proc/self/task'))(
    "checkpoints the process's embedded stores on its own worker, in place of theirs (ADR 0062)",
    async () => {
      const dir = makeTempDir('vrs-embedded-search-');
      const threads = () => readdirSync('/proc/self/task').length;
      const search = openEmbeddedSearch(join(dir, 'index'));
      // Its worker started (under tsx, with a thread of tsx's loader as well).
      expect(await search.version('project')).toBe(0);
      const withEngine = threads();
      const store = await openEmbeddedStore(join(dir, 'store'), { checkpointAtBytes: 64 * 1024 });

      // ~2 MB written in 40 commits: without checkpoints the WAL would hold it all, and the database file 4 KB.
      const docs = store.collection<StoreDocument & { payload: string }>('docs');
      for (let round = 0; round < 40; round++) {
        await docs.insertMany(Array.from({ length: 50 }, (_, i) => ({ _id: `${round}-${i}`, payload: 'x'.repeat(1_000) })));
        await sleep(30);
      }
      expect((await stat(join(dir, 'store', 'store.db'))).size).toBeGreaterThan(1_000_000);
      expect(threads()).toBe(withEngine);
      await search.close();
      await store.close();
    },
  );
});
