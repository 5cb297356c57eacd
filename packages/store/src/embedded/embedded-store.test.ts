import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFile, mkdtemp, open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DuplicateKeyError } from '../errors';
import { StoreLockedError } from './directory-lock';
import type { StoreDocument } from '../port';
import { openEmbeddedStore } from './embedded-store';

interface Note extends StoreDocument {
  text: string;
  n?: number;
  key?: string;
}

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'embedded-store-'));
});

afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

describe('embedded store persistence', () => {
  it('sees every write again after reopening, unique indexes included', async () => {
    const store = await openEmbeddedStore(dir);
    const notes = store.collection<Note>('notes');
    await notes.createIndexes([{ key: { key: 1 }, unique: true, partialFilterExpression: { key: { $exists: true } } }]);
    await notes.insertMany([
      { _id: 'a', text: 'one', key: 'k1' },
      { _id: 'b', text: 'two' },
      { _id: 'c', text: 'three' },
    ]);
    await notes.updateOne({ _id: 'b' }, { $set: { text: 'two!' }, $inc: { n: 2 } });
    await notes.deleteOne({ _id: 'c' });
    await store.collection('others').insertOne({ _id: 'o' });
    await store.close();

    const reopened = await openEmbeddedStore(dir);
    const again = reopened.collection<Note>('notes');
    expect(await again.find({}, { sort: { _id: 1 } })).toEqual([
      { _id: 'a', text: 'one', key: 'k1' },
      { _id: 'b', text: 'two!', n: 2 },
    ]);
    expect(await reopened.collection('others').countDocuments()).toBe(1);
    await expect(again.insertOne({ _id: 'd', text: 'dup', key: 'k1' })).rejects.toBeInstanceOf(DuplicateKeyError);
    await reopened.close();
  });

  it('compacts the log into a snapshot and keeps the data', async () => {
    const store = await openEmbeddedStore(dir, { compactAfterBytes: 2048 });
    const notes = store.collection<Note>('notes');
    await notes.createIndexes([{ key: { key: 1 }, unique: true, partialFilterExpression: { key: { $exists: true } } }]);
    for (let i = 0; i < 100; i++) await notes.insertOne({ _id: `n${i}`, text: 'x'.repeat(50), key: `k${i}` });
    for (let i = 0; i < 200; i++) await notes.updateOne({ _id: 'n0' }, { $inc: { n: 1 } });
    await notes.deleteMany({ _id: { $in: ['n1', 'n2'] } });
    await store.close();

    const snapshot = await stat(join(dir, 'notes.snapshot'));
    const log = await stat(join(dir, 'notes.log'));
    expect(log.size).toBeLessThan(Math.max(2048, snapshot.size) + 1024);

    const reopened = await openEmbeddedStore(dir, { compactAfterBytes: 2048 });
    const again = reopened.collection<Note>('notes');
    expect(await again.countDocuments()).toBe(98);
    expect(await again.findOne({ _id: 'n0' })).toMatchObject({ n: 200 });
    await expect(again.insertOne({ _id: 'x', text: 'dup', key: 'k5' })).rejects.toBeInstanceOf(DuplicateKeyError);
    await reopened.close();
  });

  it('ignores a log older than the snapshot (a crash between snapshot rename and log truncation)', async () => {
    const logPath = join(dir, 'notes.log');
    let staleLog = Buffer.alloc(0);
    let version = 0;
    // Rewrite one document until a write triggers compaction, keeping the log as it was before it.
    while (!(await stat(join(dir, 'notes.snapshot')).catch(() => undefined))) {
      staleLog = await readFile(logPath).catch(() => Buffer.alloc(0));
      const store = await openEmbeddedStore(dir, { compactAfterBytes: 1024 });
      version++;
      await store
        .collection<Note>('notes')
        .updateOne({ _id: 'n0' }, { $set: { text: `v${version}`, pad: 'x'.repeat(100) } }, { upsert: true });
      await store.close();
    }
    expect((await stat(logPath)).size).toBe(0);
    await writeFile(logPath, staleLog);

    const reopened = await openEmbeddedStore(dir);
    expect(await reopened.collection<Note>('notes').findOne({ _id: 'n0' })).toMatchObject({ text: `v${version}` });
    await reopened.close();
    expect((await stat(logPath)).size).toBe(0);
  });

  it('ignores a torn last line and keeps appending after it', async () => {
    const store = await openEmbeddedStore(dir);
    const notes = store.collection<Note>('notes');
    await notes.insertOne({ _id: 'a', text: 'kept' });
    await store.close();
    await appendFile(join(dir, 'notes.log'), '{"p":{"_id":"torn","te');

    const reopened = await openEmbeddedStore(dir);
    await reopened.collection<Note>('notes').insertOne({ _id: 'b', text: 'after' });
    await reopened.close();

    const third = await openEmbeddedStore(dir);
    expect(await third.collection<Note>('notes').find({}, { sort: { _id: 1 } })).toEqual([
      { _id: 'a', text: 'kept' },
      { _id: 'b', text: 'after' },
    ]);
    await third.close();
  });

  it('refuses to open a log with a corrupt complete line', async () => {
    const store = await openEmbeddedStore(dir);
    await store.collection<Note>('notes').insertOne({ _id: 'a', text: 'kept' });
    await store.close();
    await appendFile(join(dir, 'notes.log'), 'garbage\n{"d":"a"}\n');
    await expect(openEmbeddedStore(dir)).rejects.toThrow(/unreadable record/);
  });

  it('writes nothing to disk for a write refused by a unique index', async () => {
    const store = await openEmbeddedStore(dir);
    const notes = store.collection<Note>('notes');
    await notes.createIndexes([{ key: { text: 1 }, unique: true }]);
    await notes.insertOne({ _id: 'a', text: 'same' });
    await expect(notes.insertOne({ _id: 'refused', text: 'same' })).rejects.toBeInstanceOf(DuplicateKeyError);
    await expect(notes.insertOne({ _id: 'a', text: 'other' })).rejects.toBeInstanceOf(DuplicateKeyError);
    await store.close();
    const log = await readFile(join(dir, 'notes.log'), 'utf8');
    expect(log).not.toContain('refused');
    expect(log).not.toContain('other');

    const reopened = await openEmbeddedStore(dir);
    expect(await reopened.collection<Note>('notes').find({})).toEqual([{ _id: 'a', text: 'same' }]);
    await reopened.close();
  });

  it('commits the writes of one tick with one write and one fdatasync', async () => {
    const store = await openEmbeddedStore(dir);
    const notes = store.collection<Note>('notes');
    await notes.insertOne({ _id: 'first', text: 'opens the file' });
    const probe = await open(join(dir, 'probe'), 'w');
    const fileHandle = Object.getPrototypeOf(probe);
    await probe.close();
    const datasync = vi.spyOn(fileHandle, 'datasync');
    const write = vi.spyOn(fileHandle, 'write');

    await Promise.all(Array.from({ length: 100 }, (_, i) => notes.insertOne({ _id: `n${i}`, text: 'batched' })));
    expect(datasync).toHaveBeenCalledTimes(1);
    expect(write).toHaveBeenCalledTimes(1);
    await store.close();
  });
});

describe('embedded store contract', () => {
  it('refuses values JSON cannot keep, such as Dates', async () => {
    const store = await openEmbeddedStore(dir);
    const notes = store.collection<StoreDocument & Record<string, unknown>>('notes');
    await expect(notes.insertOne({ _id: 'd', at: new Date() })).rejects.toThrow(/ISO strings.*Date at "at"/);
    await expect(notes.insertOne({ _id: 'n', deep: { list: [1, Number.NaN] } })).rejects.toThrow(/NaN at "deep.list.1"/);
    await notes.insertOne({ _id: 'a', at: new Date(0).toISOString() });
    await expect(notes.updateOne({ _id: 'a' }, { $set: { at: new Date() } })).rejects.toThrow(TypeError);
    await expect(notes.updateOne({ _id: 'a' }, { $currentDate: { at: true } })).rejects.toThrow(/ISO string/);
    await expect(notes.insertOne({ name: 'no id' } as unknown as StoreDocument & Record<string, unknown>)).rejects.toThrow(/string _id/);
    expect(await notes.find({})).toEqual([{ _id: 'a', at: '1970-01-01T00:00:00.000Z' }]);
    await store.close();
  });

  it('answers ping until closed and refuses writes after close', async () => {
    const store = await openEmbeddedStore(dir);
    const notes = store.collection('notes');
    await store.ping();
    expect(() => store.collection('../escape')).toThrow(/invalid collection name/);
    await store.close();
    await expect(store.ping()).rejects.toThrow(/closed/);
    await expect(notes.insertOne({ _id: 'late' })).rejects.toThrow(/closed/);
    expect(() => store.collection('others')).toThrow(/closed/);
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('embedded store ownership', () => {
  it('refuses a second opener while the first holds the directory, and lets it in after close', async () => {
    const first = await openEmbeddedStore(dir);
    await expect(openEmbeddedStore(dir)).rejects.toThrow(StoreLockedError);
    await first.close();
    const second = await openEmbeddedStore(dir);
    await second.close();
  });

  it('names the live process that owns the directory', async () => {
    const owner = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    try {
      await writeFile(join(dir, 'LOCK'), JSON.stringify({ pid: owner.pid, host: 'elsewhere', since: 'then' }));
      const refused = await openEmbeddedStore(dir).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(StoreLockedError);
      expect((refused as StoreLockedError).ownerPid).toBe(owner.pid);
      expect((refused as Error).message).toMatch(/in use by another process .*DATA_DIR/);
    } finally {
      owner.kill('SIGKILL');
    }
  });

  it('takes over a lock left by a process that died without closing', async () => {
    const dead = spawn(process.execPath, ['-e', '']);
    await once(dead, 'exit');
    await writeFile(join(dir, 'LOCK'), JSON.stringify({ pid: dead.pid, host: 'here', since: 'then' }));
    const store = await openEmbeddedStore(dir);
    expect(JSON.parse(await readFile(join(dir, 'LOCK'), 'utf8')).pid).toBe(process.pid);
    await store.close();
  });

  it('releases the directory when opening fails', async () => {
    await writeFile(join(dir, 'notes.log'), 'garbage\n');
    await expect(openEmbeddedStore(dir)).rejects.toThrow(/unreadable record/);
    expect(await readdir(dir)).toEqual(['notes.log']);
  });
});
