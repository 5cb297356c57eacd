import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoreDocument } from '../port';
import { DATABASE_FILE, openEmbeddedStore } from './embedded-store';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'store-checkpoints-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes ~2 MB in 40 commits with pauses between them; answers the WAL file's size at the end. */
async function writeInRounds(storeDir: string, checkpointAtBytes: number) {
  const store = await openEmbeddedStore(storeDir, { checkpointAtBytes });
  const docs = store.collection<StoreDocument & { round: number; payload: string }>('docs');
  for (let round = 0; round < 40; round++) {
    await docs.insertMany(Array.from({ length: 50 }, (_, i) => ({ _id: `${round}-${i}`, round, payload: 'x'.repeat(1_000) })));
    await sleep(30);
  }
  const walBytes = (await stat(join(storeDir, `${DATABASE_FILE}-wal`))).size;
  expect(await docs.countDocuments({})).toBe(2_000);
  await store.close();
  return walBytes;
}

describe('background WAL checkpoints (ADR 0044)', () => {
  it('keep the WAL small while writes go on, with no checkpoint in the writes themselves', async () => {
    // Without the worker the store's own connection would not checkpoint before 64 MiB: the WAL
    // holds every page written.
    const unchecked = await writeInRounds(join(dir, 'unchecked'), Number.POSITIVE_INFINITY);
    expect(unchecked).toBeGreaterThan(2_000_000);
    const checked = await writeInRounds(join(dir, 'checked'), 64 * 1024);
    expect(checked).toBeLessThan(unchecked / 3);
  });

  it('let a closed store open again at once, with what it wrote', async () => {
    for (let round = 0; round < 3; round++) {
      const store = await openEmbeddedStore(dir, { checkpointAtBytes: 1 });
      const docs = store.collection<StoreDocument & { round: number }>('docs');
      await docs.insertOne({ _id: `r${round}`, round });
      expect(await docs.countDocuments({})).toBe(round + 1);
      await store.close();
    }
  });
});
