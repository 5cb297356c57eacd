import { closeSync, existsSync, openSync, readdirSync, readSync, writeFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import Database from 'libsql';
import { makeTempDir } from '@vrs/testing/temp-dir';
import type { Store, StoreDocument } from '../port';
import { DATABASE_FILE, openEmbeddedStore } from './embedded-store';
import { pendingWalBytes } from './serve-checkpoints.mjs';
import { checkpointInBackground, checkpointSettings, hostCheckpoints } from './wal-checkpointer';

/** What writeInRounds leaves in the WAL when nothing checkpoints it (the first test shows it). */
const UNCHECKED_WAL_BYTES = 2_000_000;
/**
 * What reaches the database file during writeInRounds once checkpoints go on (~2.7 MB); 4 KB if
 * none does. Whether the WAL starts over depends on no commit landing during a checkpoint's fsync,
 * which a busy machine's disk decides, so the tests below look here instead.
 */
const CHECKPOINTED_BYTES = 1_000_000;
/** A store's threshold in these tests: a checkpoint every few rounds. */
const CHECKPOINT_AT_BYTES = 64 * 1024;

let dir: string;
beforeEach(() => {
  dir = makeTempDir('store-checkpoints-');
});

/** Writes ~2 MB to the store in 40 commits with pauses between them; answers the sizes of its files at the end. */
async function writeInRounds(store: Store, storeDir: string) {
  const docs = store.collection<StoreDocument & { round: number; payload: string }>('docs');
  for (let round = 0; round < 40; round++) {
    await docs.insertMany(Array.from({ length: 50 }, (_, i) => ({ _id: `${round}-${i}`, round, payload: 'x'.repeat(1_000) })));
    await sleep(30);
  }
  expect(await docs.countDocuments({})).toBe(2_000);
  const [database, wal] = await Promise.all([stat(join(storeDir, DATABASE_FILE)), stat(join(storeDir, `${DATABASE_FILE}-wal`))]);
  return { databaseBytes: database.size, walBytes: wal.size };
}

/** How many times SQLite has started the WAL over: the checkpoint sequence number in its header. */
function walRestarts(walFile: string): number {
  const header = Buffer.alloc(16);
  const fd = openSync(walFile, 'r');
  try {
    readSync(fd, header, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  return header.readUInt32BE(12);
}

async function filesAfterRounds(storeDir: string, checkpointAtBytes: number) {
  const store = await openEmbeddedStore(storeDir, { checkpointAtBytes });
  const files = await writeInRounds(store, storeDir);
  await store.close();
  return files;
}

describe('background WAL checkpoints (ADR 0044)', () => {
  it('copy the WAL into the database while writes go on, with no checkpoint in the writes themselves', async () => {
    // Without the worker the store's own connection would not checkpoint before 64 MiB: the WAL
    // holds every page written, and none reaches the database file.
    const unchecked = await filesAfterRounds(join(dir, 'unchecked'), Number.POSITIVE_INFINITY);
    expect(unchecked.walBytes).toBeGreaterThan(UNCHECKED_WAL_BYTES);
    expect(unchecked.databaseBytes).toBeLessThan(CHECKPOINTED_BYTES);
    const checked = await filesAfterRounds(join(dir, 'checked'), CHECKPOINT_AT_BYTES);
    expect(checked.databaseBytes).toBeGreaterThan(CHECKPOINTED_BYTES);
    // The WAL started over at least once. How often depends on commits missing the checkpoints'
    // fsyncs, which a busy disk decides (it read a third of the unchecked size on a quiet machine,
    // half of it on a busy one), so no tighter bound holds here.
    expect(checked.walBytes).toBeLessThan(unchecked.walBytes);
  });

  it('start the WAL over once the threshold is waiting to be copied, not at every write after it first got there (ADR 0069)', async () => {
    const thresholdBytes = 1024 * 1024;
    const store = await openEmbeddedStore(dir, { checkpointAtBytes: thresholdBytes });
    const docs = store.collection<StoreDocument & { payload: string }>('docs');
    const walFile = join(dir, `${DATABASE_FILE}-wal`);
    let written = 0;
    const writeBatch = (count: number, bytes: number) =>
      docs.insertMany(Array.from({ length: count }, () => ({ _id: `doc-${written++}`, payload: 'x'.repeat(bytes) })));
    /** Writes batches of `count` 1 KB documents until the WAL has started over since `restarts`. */
    const writeUntilStartedOver = (restarts: number, count: number) =>
      expect
        .poll(
          async () => {
            await writeBatch(count, 1_000);
            return walRestarts(walFile);
          },
          { timeout: 10_000, interval: 100 },
        )
        .toBeGreaterThan(restarts);
    try {
      // The WAL file past the threshold, then batches until a checkpoint copied all of it and a
      // write started it over: from there on it holds only what is written next.
      await writeInRounds(store, dir);
      await writeUntilStartedOver(walRestarts(walFile), 25);
      // Small writes across a dozen of the checkpointer's ticks: each changes the WAL, whose file is
      // as large as before, but all of them leave far less than the threshold to copy.
      const settled = walRestarts(walFile);
      for (let i = 0; i < 20; i++) {
        await writeBatch(1, 200);
        await sleep(60);
      }
      expect(walRestarts(walFile)).toBe(settled);
      // The threshold's worth written: checkpointed, and started over again.
      await writeUntilStartedOver(settled, 50);
    } finally {
      await store.close();
    }
  });

  it('start the WAL of a store written without pause over, holding its writes for a checkpoint with none beside it (ADR 0073)', async () => {
    // The store's own connection must not checkpoint here: only the background can start the WAL over.
    const { fallbackPages } = checkpointSettings;
    checkpointSettings.fallbackPages = 1_000_000_000;
    onTestFinished(() => {
      checkpointSettings.fallbackPages = fallbackPages;
    });
    const store = await openEmbeddedStore(dir, { checkpointAtBytes: CHECKPOINT_AT_BYTES });
    const docs = store.collection<StoreDocument & { payload: string }>('docs');
    const walFile = join(dir, `${DATABASE_FILE}-wal`);
    try {
      await docs.insertOne({ _id: 'first', payload: '' });
      const restartsBefore = walRestarts(walFile);
      // One small write after another, a turn of the event loop apart (the checkpointer's messages
      // are handled there): every background checkpoint overlaps a write, and none alone copies all.
      const until = performance.now() + 2_000;
      for (let i = 0; performance.now() < until; i++) {
        await docs.insertOne({ _id: `doc-${i}`, payload: 'x'.repeat(200) });
        await new Promise((resolve) => setImmediate(resolve));
      }
      // About once per tick of the checkpointer (100 ms) it asks for a quiet checkpoint; without, none.
      expect(walRestarts(walFile) - restartsBefore).toBeGreaterThanOrEqual(3);
      expect(pendingWalBytes(join(dir, DATABASE_FILE))).toBeDefined();
    } finally {
      await store.close();
    }
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

describe('pendingWalBytes (ADR 0069)', () => {
  it('reads the frames no checkpoint has copied from the wal-index, and nothing from a file that is not one', () => {
    const file = join(dir, 'plain.db');
    const db = new Database(file);
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('wal_autocheckpoint = 0');
      db.exec('CREATE TABLE t (x TEXT)');
      const insert = db.prepare('INSERT INTO t VALUES (?)');
      for (let i = 0; i < 100; i++) insert.run('y'.repeat(1_000));
      const pending = pendingWalBytes(file);
      const [{ log, checkpointed }] = db.pragma('wal_checkpoint(PASSIVE)') as [{ log: number; checkpointed: number }];
      expect(checkpointed).toBe(log);
      // Each frame: a 4 KiB page and its 24-byte header.
      expect(pending).toBe(log * (4096 + 24));
      expect(pendingWalBytes(file)).toBe(0);
      insert.run('z');
      expect(pendingWalBytes(file)).toBeGreaterThan(0);
    } finally {
      db.close();
    }
    expect(pendingWalBytes(join(dir, 'missing.db'))).toBeUndefined();
    writeFileSync(join(dir, 'other.db-shm'), Buffer.alloc(4096, 7));
    expect(pendingWalBytes(join(dir, 'other.db'))).toBeUndefined();
  });
});

// Worker threads are counted as the threads of this process (Linux's /proc): each is one.
describe.runIf(existsSync('/proc/self/task'))('WAL checkpoints hosted by another worker (ADR 0062)', () => {
  const threads = () => readdirSync('/proc/self/task').length;
  const serveModule = new URL('./serve-checkpoints.mjs', import.meta.url).href;
  const hosts: Worker[] = [];
  const stores: Store[] = [];

  /** A worker that serves the checkpoints and nothing else, as the search engine's worker does besides its calls. */
  function startHost(): Worker {
    const channel = hostCheckpoints();
    const host = new Worker(
      `import(${JSON.stringify(serveModule)}).then(({ serveCheckpoints }) => serveCheckpoints(require('node:worker_threads').workerData));`,
      { eval: true, workerData: channel, transferList: [channel.port] },
    );
    hosts.push(host);
    return host;
  }
  async function openStore(name: string) {
    const store = await openEmbeddedStore(join(dir, name), { checkpointAtBytes: CHECKPOINT_AT_BYTES });
    stores.push(store);
    return store;
  }
  /** How long the store's close takes: its `forget` answered, well within the 2 s a silent thread is given. */
  async function closeTime(store: Store) {
    const started = performance.now();
    await store.close();
    return performance.now() - started;
  }

  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    for (const host of hosts.splice(0)) await host.terminate();
  });

  it('move from the dedicated worker to the host, which then checkpoints every store, old and new, and the dedicated worker ends', async () => {
    const before = await openStore('before');
    // A store open and no host: exactly one checkpoint thread, the dedicated worker.
    const withDedicated = threads();
    startHost();
    await expect.poll(threads).toBe(withDedicated);
    const after = await openStore('after');
    expect((await writeInRounds(before, join(dir, 'before'))).databaseBytes).toBeGreaterThan(CHECKPOINTED_BYTES);
    expect((await writeInRounds(after, join(dir, 'after'))).databaseBytes).toBeGreaterThan(CHECKPOINTED_BYTES);
    expect(threads()).toBe(withDedicated);
    expect(await closeTime(before)).toBeLessThan(1_000);
    expect(await closeTime(after)).toBeLessThan(1_000);
  });

  it('go back to a dedicated worker when the host ends while stores are open, and go on', async () => {
    // Longer than the default second: a loaded machine once took that long between the host's port
    // closing and `terminate` resolving, and the fallback was already running when counted.
    const fallbackDelayMs = checkpointSettings.fallbackDelayMs;
    checkpointSettings.fallbackDelayMs = 4_000;
    onTestFinished(() => {
      checkpointSettings.fallbackDelayMs = fallbackDelayMs;
    });
    const store = await openStore('data');
    const withDedicated = threads();
    const host = startHost();
    await expect.poll(threads).toBe(withDedicated);
    await host.terminate();
    // The host gone and no dedicated worker yet (`fallbackDelayMs`), then one.
    expect(threads()).toBe(withDedicated - 1);
    await expect.poll(threads, { timeout: 20_000 }).toBe(withDedicated);
    expect((await writeInRounds(store, join(dir, 'data'))).databaseBytes).toBeGreaterThan(CHECKPOINTED_BYTES);
    expect(await closeTime(store)).toBeLessThan(1_000);
  });

  it('keep the host serving the other stores when a file cannot be opened', async () => {
    const store = await openStore('data');
    const host = startHost();
    let hostEnded = false;
    host.on('exit', () => {
      hostEnded = true;
    });
    const stopMissing = checkpointInBackground(join(dir, 'missing', DATABASE_FILE));
    expect((await writeInRounds(store, join(dir, 'data'))).databaseBytes).toBeGreaterThan(CHECKPOINTED_BYTES);
    await stopMissing();
    expect(hostEnded).toBe(false);
  });

  it('let a store close at once whichever thread serves them, or none', async () => {
    const handedOver = await openStore('handed-over');
    const hosted = await openStore('hosted');
    const hostEnding = await openStore('host-ending');
    const hostGone = await openStore('host-gone');
    const fallback = await openStore('fallback');
    // Stores open, one dedicated worker serving them and no host: the count the fallback returns to.
    const withDedicated = threads();
    const host = startHost();
    // While the dedicated worker that served it leaves for the host, which has yet to start.
    expect(await closeTime(handedOver)).toBeLessThan(1_000);
    expect(await closeTime(hosted)).toBeLessThan(1_000);
    const closing = closeTime(hostEnding);
    await host.terminate();
    expect(await closing).toBeLessThan(1_000);
    expect(await closeTime(hostGone)).toBeLessThan(1_000);
    // Counted against the start, not after the closes: on a loaded machine those can take past
    // `fallbackDelayMs`, and the fallback was then already running when counted (a fresh-clone run).
    await expect.poll(threads, { timeout: 20_000 }).toBe(withDedicated);
    expect(await closeTime(fallback)).toBeLessThan(1_000);
  });
});
