import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeEach, expect, it } from 'vitest';
import { makeTempDir } from '@vrs/testing/temp-dir';
import type { StoreDocument } from '../port';
import { openEmbeddedStore } from './embedded-store';

const WRITER = fileURLToPath(new URL('../../test/durability-writer.ts', import.meta.url));
const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ACKS_BEFORE_KILL = 300;

let dir: string;

beforeEach(() => {
  dir = makeTempDir('store-durability-');
});

/** Runs the writer until it has acknowledged `acks` inserts, kills it with SIGKILL, returns its output. */
async function writeUntilKilled(acks: number): Promise<string[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', WRITER, dir], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let partial = '';
  let stderr = '';
  let inserts = 0;
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      const parts = (partial + chunk).split('\n');
      partial = parts.pop()!;
      for (const line of parts) if (line.startsWith('insert ')) inserts++;
      lines.push(...parts);
      if (inserts >= acks) resolve();
    });
    child.once('close', (code) => reject(new Error(`writer stopped by itself (${code}): ${stderr}`)));
  });
  child.kill('SIGKILL');
  // Lines printed before the kill landed are acknowledged too: read them all.
  await closed;
  return lines;
}

it('keeps every acknowledged write after kill -9, twice over', { timeout: 60_000 }, async () => {
  const inserted: string[] = [];
  const counted = new Map<string, number>();
  for (let round = 0; round < 2; round++) {
    for (const line of await writeUntilKilled(ACKS_BEFORE_KILL)) {
      const [kind, id = '', n] = line.split(' ');
      if (kind === 'insert') inserted.push(id);
      else counted.set(id, Math.max(counted.get(id) ?? 0, Number(n)));
    }
  }

  const store = await openEmbeddedStore(dir);
  const docs = store.collection('acks');
  const missing = [];
  for (const id of inserted) if (!(await docs.findOne({ _id: id }))) missing.push(id);
  expect(missing).toEqual([]);
  expect(inserted.length).toBeGreaterThanOrEqual(2 * ACKS_BEFORE_KILL);
  const counters = store.collection<StoreDocument & { n: number }>('counters');
  for (const [id, n] of counted) expect((await counters.findOne({ _id: id }))!.n).toBeGreaterThanOrEqual(n);
  await store.close();
});
