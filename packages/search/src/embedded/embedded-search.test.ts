import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

describe('openEmbeddedSearch', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('never keeps its process alive while no call is outstanding', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vrs-embedded-search-'));
    dirs.push(dir);
    const script = join(dir, 'idle-engine.mts');
    const searchModule = new URL('./embedded-search.ts', import.meta.url).pathname;
    // Opened and never called (a service that started and had no search to answer), then left
    // open: the process must still end by itself.
    writeFileSync(
      script,
      `import { openEmbeddedSearch } from ${JSON.stringify(searchModule)};
openEmbeddedSearch(${JSON.stringify(join(dir, 'index'))});`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: 'inherit' });
    const hung = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const [code, signal] = await once(child, 'exit');
    clearTimeout(hung);
    expect({ code, signal }).toEqual({ code: 0, signal: null });
  });
});
