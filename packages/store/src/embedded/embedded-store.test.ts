import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runModuleToExit } from '@vrs/testing/processes';
import { holdSqliteWriteLock } from '@vrs/testing/sqlite-write-lock';
import { makeTempDir } from '@vrs/testing/temp-dir';
import { DuplicateKeyError } from '../errors';
import { StoreLockedError } from './directory-lock';
import type { StoreDocument, StoreScope } from '../port';
import { deleteExpired, type ExpiringDocument, expiresAt, expiryIndex } from '../retention';
import { DATABASE_FILE, openEmbeddedStore } from './embedded-store';
import type { SqliteCollection } from './sqlite-collection';

interface Note extends StoreDocument {
  text: string;
  n?: number;
  key?: string;
}

let dir: string;

beforeEach(() => {
  dir = makeTempDir('embedded-store-');
});

afterEach(() => {
  vi.restoreAllMocks();
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
});

interface Version extends StoreDocument {
  kind: unknown;
  key: unknown;
  fetchedAt: string;
}

describe('embedded store indexes', () => {
  const lookup = { kind: 'video', key: 'k1' };
  const newestFirst = { sort: { fetchedAt: -1 as const, _id: -1 as const }, limit: 1 };

  it('serves an equality prefix and its sort from the declared index, without sorting', async () => {
    const store = await openEmbeddedStore(dir);
    const versions = store.collection<Version>('versions');
    await versions.createIndexes([{ key: { kind: 1, key: 1, fetchedAt: -1 }, name: 'kind_key_newest_first' }]);
    await versions.insertMany(
      Array.from({ length: 50 }, (_, i) => ({
        _id: `v${i}`,
        kind: 'video',
        key: `k${i % 5}`,
        fetchedAt: `2026-01-${String(i + 1).padStart(2, '0')}`,
      })),
    );
    const plan = (versions as SqliteCollection<Version>).queryPlan(lookup, { sort: { fetchedAt: -1, _id: -1 }, limit: 1 });
    expect(plan.join(' | ')).toMatch(/SEARCH .* USING INDEX ix_\w+_q \(<expr>=\? AND <expr>=\?\)/);
    expect(plan.join(' | ')).not.toMatch(/TEMP B-TREE/);
    expect(await versions.findOne(lookup, { sort: { fetchedAt: -1 } })).toMatchObject({ _id: 'v46' });
    // A keyset cursor's $or stays in SQL and the index still gives the order.
    const cursor = { $or: [{ fetchedAt: { $lt: '2026-01-20' } }, { fetchedAt: '2026-01-20', _id: { $lt: 'v19' } }] };
    const cursorPlan = (versions as SqliteCollection<Version>).queryPlan(
      { $and: [lookup, cursor] },
      { sort: { fetchedAt: -1, _id: -1 }, limit: 2 },
    );
    expect(cursorPlan.join(' | ')).toMatch(/USING INDEX ix_\w+_q/);
    expect(cursorPlan.join(' | ')).not.toMatch(/TEMP B-TREE/);
    const afterCursor = await versions.find({ $and: [lookup, cursor] }, { sort: { fetchedAt: -1, _id: -1 }, limit: 2 });
    expect(afterCursor.map((doc) => doc._id)).toEqual(['v16', 'v11']);
    const range = await versions.find(
      { kind: 'video', key: 'k1', fetchedAt: { $gte: '2026-01-10', $lt: '2026-01-40' } },
      { sort: { fetchedAt: 1 } },
    );
    expect(range.map((doc) => doc._id)).toEqual(['v11', 'v16', 'v21', 'v26', 'v31', 'v36']);
    await store.close();
  });

  it('finds expired documents for the retention sweep through the expiry index', async () => {
    const store = await openEmbeddedStore(dir);
    const records = store.collection<ExpiringDocument>('records');
    await records.createIndexes([expiryIndex]);
    await records.insertMany(
      Array.from({ length: 20 }, (_, i) => ({ _id: `r${i}`, expiresAt: expiresAt(Date.UTC(2026, 0, 1), i * 1000) })),
    );
    const due = { expiresAt: { $lte: '2026-01-01T00:00:05.000Z' } };
    expect((records as SqliteCollection<ExpiringDocument>).queryPlan(due).join(' | ')).toMatch(/SEARCH .* USING INDEX ix_\w+/);
    expect(await deleteExpired(records, Date.UTC(2026, 0, 1, 0, 0, 5))).toBe(6);
    expect(await records.countDocuments()).toBe(14);
    await store.close();
  });

  it('serves an equality on the paths of a partial unique index from that index (upserts by source key)', async () => {
    const store = await openEmbeddedStore(dir);
    const items = store.collection<Note & { projectId: string }>('items');
    await items.createIndexes([
      { key: { projectId: 1, key: 1 }, unique: true, name: 'project_key', partialFilterExpression: { key: { $exists: true } } },
    ]);
    await items.insertMany(
      Array.from({ length: 50 }, (_, i) => ({ _id: `i${i}`, projectId: 'p', text: 't', ...(i % 2 === 0 && { key: `k${i}` }) })),
    );
    const lookup = { projectId: 'p', key: 'k10' };
    expect((items as SqliteCollection<Note & { projectId: string }>).queryPlan(lookup).join(' | ')).toMatch(
      /SEARCH .* USING INDEX ix_\w+ \(<expr>=\? AND <expr>=\?\)/,
    );
    expect(await items.find(lookup)).toEqual([{ _id: 'i10', projectId: 'p', text: 't', key: 'k10' }]);
    // A batch of keys at once (an ingestion request finding which of its sourceKeys it knows).
    const batch = { projectId: 'p', key: { $in: ['k10', 'k12', 'k13'] } };
    expect((items as SqliteCollection<Note & { projectId: string }>).queryPlan(batch).join(' | ')).toMatch(
      /SEARCH .* USING INDEX ix_\w+_q \(<expr>=\? AND <expr>=\?\)/,
    );
    expect((await items.find(batch, { sort: { _id: 1 } })).map((item) => item._id)).toEqual(['i10', 'i12']);
    expect(await items.countDocuments({ projectId: 'p', key: { $in: [] } })).toBe(0);
    // An equality to null also matches documents without the path: it must not be narrowed to the index.
    expect(await items.countDocuments({ projectId: 'p', key: null })).toBe(25);
    await items.findOneAndUpdate({ projectId: 'p', key: 'k51' }, { $set: { text: 'new' } }, { upsert: true });
    expect(await items.countDocuments({ projectId: 'p', key: { $exists: true } })).toBe(26);
    await store.close();
  });

  it('falls back to mingo, with MongoDB results, once an indexed path holds an array, also after reopening', async () => {
    const store = await openEmbeddedStore(dir);
    const versions = store.collection<Version>('versions');
    await versions.createIndexes([{ key: { kind: 1, key: 1, fetchedAt: -1 }, name: 'kind_key_newest_first' }]);
    await versions.insertMany([
      { _id: 'a', kind: 'video', key: 'k1', fetchedAt: '1' },
      { _id: 'b', kind: ['video', 'other'], key: 'k1', fetchedAt: '2' },
      { _id: 'c', kind: 'video', key: 1, fetchedAt: '3' },
    ]);
    expect(await versions.findOne(lookup, newestFirst)).toMatchObject({ _id: 'b' });
    expect((versions as SqliteCollection<Version>).queryPlan(lookup).join(' ')).not.toMatch(/<expr>=\? AND <expr>=\?/);
    await store.close();

    const reopened = await openEmbeddedStore(dir);
    const again = reopened.collection<Version>('versions');
    await again.createIndexes([{ key: { kind: 1, key: 1, fetchedAt: -1 }, name: 'kind_key_newest_first' }]);
    expect((await again.find(lookup, { sort: { fetchedAt: 1 } })).map((doc) => doc._id)).toEqual(['a', 'b']);
    // The key path stayed scalar, so it still goes to SQL; 1 and "1" stay apart.
    expect(await again.countDocuments({ key: 1 })).toBe(1);
    await reopened.close();
  });

  it('learns from existing documents when an index is declared on a path late', async () => {
    const store = await openEmbeddedStore(dir);
    const versions = store.collection<Version>('versions');
    await versions.insertMany([
      { _id: 'a', kind: { nested: true }, key: 'k', fetchedAt: '1' },
      { _id: 'b', kind: true, key: 'k', fetchedAt: '2' },
      { _id: 'c', kind: 1, key: 'k', fetchedAt: '3' },
    ]);
    await versions.createIndexes([{ key: { kind: 1 }, name: 'kind' }]);
    // SQL would see true as 1; MongoDB (and so mingo) does not.
    expect((await versions.find({ kind: 1 })).map((doc) => doc._id)).toEqual(['c']);
    expect((await versions.find({}, { sort: { kind: 1 } })).map((doc) => doc._id)).toEqual(['c', 'a', 'b']);
    await store.close();
  });

  interface Due extends StoreDocument {
    enabled: unknown;
    nextCheckAt: number;
    leaseUntil: number;
  }
  const due = (now: number) => ({ enabled: true, nextCheckAt: { $lte: now }, leaseUntil: { $lte: now } });
  const soonestFirst = { sort: { nextCheckAt: 1 as const }, limit: 3 };

  it('serves an equality to true or false from an index on a path that holds booleans (the due monitors), without sorting', async () => {
    const store = await openEmbeddedStore(dir);
    const monitors = store.collection<Due>('monitors');
    await monitors.createIndexes([{ key: { enabled: 1, nextCheckAt: 1 }, name: 'due' }]);
    await monitors.insertMany([
      ...Array.from({ length: 40 }, (_, i) => ({
        _id: `m${i}`,
        enabled: i % 4 !== 0,
        nextCheckAt: 100 - i,
        leaseUntil: i === 39 ? 500 : 0,
      })),
      { _id: 'one', enabled: 1, nextCheckAt: 0, leaseUntil: 0 },
      { _id: 'zero', enabled: 0, nextCheckAt: 0, leaseUntil: 0 },
      { _id: 'missing', nextCheckAt: 0, leaseUntil: 0 } as Due,
    ]);
    const plan = (monitors as SqliteCollection<Due>).queryPlan(due(80), soonestFirst).join(' | ');
    expect(plan).toMatch(/SEARCH .* USING INDEX ix_\w+_q \(<expr>=\? AND <expr><\?\)/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
    // m39 is leased, m36 disabled: true is never 1, and what SQL cannot decide (the lease) mingo still does.
    expect((await monitors.find(due(80), soonestFirst)).map((doc) => doc._id)).toEqual(['m38', 'm37', 'm35']);
    expect((await monitors.find({ enabled: { $eq: false } }, { sort: { _id: 1 } })).map((doc) => doc._id)).toEqual([
      'm0',
      'm12',
      'm16',
      'm20',
      'm24',
      'm28',
      'm32',
      'm36',
      'm4',
      'm8',
    ]);
    expect((await monitors.find({ enabled: 1 })).map((doc) => doc._id)).toEqual(['one']);
    expect((await monitors.find({ enabled: 0 })).map((doc) => doc._id)).toEqual(['zero']);
    expect(await monitors.countDocuments({ enabled: true })).toBe(30);
    // Ranges and sorts on the path stay with mingo: MongoDB orders booleans after numbers.
    expect((await monitors.find({ enabled: { $gte: 0 } }, { sort: { _id: 1 } })).map((doc) => doc._id)).toEqual(['one', 'zero']);
    const sorted = await monitors.find({ nextCheckAt: { $in: [0, 61, 64] } }, { sort: { enabled: 1, _id: 1 } });
    expect(sorted.map((doc) => doc._id)).toEqual(['missing', 'zero', 'one', 'm36', 'm39']);
    await store.close();
  });

  it('looks again, once, at the paths an older store listed as complex for holding booleans', async () => {
    const store = await openEmbeddedStore(dir);
    const monitors = store.collection<Due>('monitors');
    await monitors.createIndexes([
      { key: { enabled: 1, nextCheckAt: 1 }, name: 'due' },
      { key: { leaseUntil: 1 }, name: 'lease' },
    ]);
    await monitors.insertMany([
      { _id: 'a', enabled: true, nextCheckAt: 1, leaseUntil: 0 },
      { _id: 'b', enabled: false, nextCheckAt: 2, leaseUntil: 0 },
    ]);
    await store.close();
    // What an older version wrote: every path holding a boolean listed as complex, user_version 0.
    const db = new Database(join(dir, DATABASE_FILE));
    db.exec(`DELETE FROM _boolean_paths;
      INSERT INTO _complex_paths (collection, path) VALUES ('monitors', 'enabled'), ('monitors', 'leaseUntil');
      PRAGMA user_version = 0;`);
    db.close();

    const reopened = await openEmbeddedStore(dir);
    const again = reopened.collection<Due>('monitors');
    const plan = (again as SqliteCollection<Due>).queryPlan(due(5), soonestFirst).join(' | ');
    expect(plan).toMatch(/USING INDEX ix_\w+_q \(<expr>=\? AND <expr><\?\)/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
    expect((await again.find(due(5), soonestFirst)).map((doc) => doc._id)).toEqual(['a']);
    // leaseUntil never held a boolean: it is a plain scalar path again, its range in SQL.
    expect((again as SqliteCollection<Due>).queryPlan({ leaseUntil: { $lte: 0 } }).join(' | ')).toMatch(
      /USING INDEX ix_\w+_q \(<expr><\?\)/,
    );
    await again.insertOne({ _id: 'c', enabled: [true], nextCheckAt: 3, leaseUntil: 0 });
    await reopened.close();

    // A path that holds an array stays complex, through the next look too.
    const db2 = new Database(join(dir, DATABASE_FILE));
    db2.exec('PRAGMA user_version = 0;');
    db2.close();
    const third = await openEmbeddedStore(dir);
    const monitorsAgain = third.collection<Due>('monitors');
    expect((monitorsAgain as SqliteCollection<Due>).queryPlan(due(5), soonestFirst).join(' | ')).toMatch(/TEMP B-TREE/);
    expect((await monitorsAgain.find(due(5), { sort: { nextCheckAt: 1 } })).map((doc) => doc._id)).toEqual(['a', 'c']);
    await third.close();
  });
});

describe("embedded store writes beside a moment of another connection's lock", () => {
  it('wait for the lock to go instead of failing with "database is locked": a write, a batch, an update, a transaction', async () => {
    const store = await openEmbeddedStore(dir);
    const notes = store.collection<Note>('notes');
    const file = join(dir, DATABASE_FILE);
    try {
      await notes.insertOne({ _id: 'before', text: 'unlocked' });
      const writes: Array<[string, () => Promise<unknown>]> = [
        ['a write', () => notes.insertOne({ _id: 'one', text: 'while locked' })],
        [
          'a batch',
          () =>
            notes.insertMany([
              { _id: 'two', text: 'while locked' },
              { _id: 'three', text: 'while locked' },
            ]),
        ],
        ['an update', () => notes.updateMany({ text: 'unlocked' }, { $set: { n: 1 } })],
        [
          'a transaction',
          () => store.withTransaction((tx) => tx.collection<Note>('notes').insertOne({ _id: 'four', text: 'while locked' })),
        ],
      ];
      for (const [name, write] of writes) {
        const lock = await holdSqliteWriteLock(file, 40);
        await expect(write(), name).resolves.not.toThrow();
        await lock.released;
      }
      expect((await notes.find({}, { sort: { _id: 1 } })).map((note) => [note._id, note.n])).toEqual([
        ['before', 1],
        ['four', undefined],
        ['one', undefined],
        ['three', undefined],
        ['two', undefined],
      ]);
    } finally {
      await store.close();
    }
  });
});

describe('embedded store updates in SQL', () => {
  it('marks many documents with $max in the stored text, which reads back and matches as JSON.stringify wrote it', async () => {
    const store = await openEmbeddedStore(dir);
    const notes = store.collection<Note & { projectId: string; version?: number }>('notes');
    await notes.createIndexes([{ key: { projectId: 1, version: 1 }, name: 'project_version' }]);
    const awkward = 'quote " backslash \\ tab \t newline \n emoji 🎉 control \u0001 lone \ud800 end';
    await notes.insertMany([
      { _id: 'a', projectId: 'p', text: awkward, n: 1.5 },
      { _id: 'b', projectId: 'p', text: 'plain', version: 7 },
    ]);
    expect(await notes.updateMany({ projectId: 'p', _id: { $in: ['a', 'b'] } }, { $max: { version: 3 } })).toEqual({
      matchedCount: 2,
      modifiedCount: 1,
    });
    expect(await notes.find({ projectId: 'p' }, { sort: { _id: 1 } })).toEqual([
      { _id: 'a', projectId: 'p', text: awkward, n: 1.5, version: 3 },
      { _id: 'b', projectId: 'p', text: 'plain', version: 7 },
    ]);
    // An equality on an unindexed path is narrowed by searching the stored text for JSON.stringify's spelling.
    expect((await notes.findOne({ text: awkward }))?._id).toBe('a');
    expect(await notes.countDocuments({ projectId: 'p', version: { $gt: 2 } })).toBe(2);
    await store.close();
  });

  it('sets top-level strings, numbers and null in the stored text, spelt as JSON.stringify spells them, counting what changed', async () => {
    const store = await openEmbeddedStore(dir);
    type Row = StoreDocument & { status?: unknown; charged?: unknown; note?: unknown; nested?: { at: string } };
    const rows = store.collection<Row>('rows');
    await rows.createIndexes([{ key: { status: 1, note: 1 }, name: 'status_note' }]);
    const awkward = 'quote " backslash \\ tab \t newline \n cr \r bs \b ff \f control \u0001 \u001f del \u007f ls \u2028 slash / é';
    const before: Row[] = [
      { _id: 'a', status: 'reserved', charged: null, note: 1 },
      { _id: 'b', status: 'settled', charged: 3, note: 'x' },
      { _id: 'c' },
      { _id: 'd', status: true, charged: '3', nested: { at: 'x' } },
    ];
    await rows.insertMany(before);
    const ids = { _id: { $in: ['a', 'b', 'c', 'd'] } };
    const parse = vi.spyOn(JSON, 'parse');
    // A row changes unless it already holds every value: b holds both, so three of the four change.
    expect(await rows.updateMany(ids, { $set: { status: 'settled', charged: 3 } })).toEqual({ matchedCount: 4, modifiedCount: 3 });
    expect(await rows.updateMany(ids, { $set: { note: awkward, charged: 1e21 } })).toEqual({ matchedCount: 4, modifiedCount: 4 });
    expect(await rows.updateMany({ _id: 'a' }, { $set: { charged: 0.1, note: null } })).toEqual({ matchedCount: 1, modifiedCount: 1 });
    expect(await rows.updateMany({ _id: 'a' }, { $set: { note: null } })).toEqual({ matchedCount: 1, modifiedCount: 0 });
    // Written by SQLite: no row was read into JavaScript.
    expect(parse).not.toHaveBeenCalled();
    const expected: Row[] = [
      { _id: 'a', status: 'settled', charged: 0.1, note: null },
      { _id: 'b', status: 'settled', charged: 1e21, note: awkward },
      { _id: 'c', status: 'settled', charged: 1e21, note: awkward },
      { _id: 'd', status: 'settled', charged: 1e21, nested: { at: 'x' }, note: awkward },
    ];
    const db = new Database(join(dir, DATABASE_FILE), { readonly: true });
    const stored = db.prepare('SELECT doc FROM c_rows ORDER BY id').raw().all() as [string][];
    db.close();
    expect(stored.map(([text]) => text)).toEqual(expected.map((row) => JSON.stringify(row)));
    // The index and the text narrowing of an unindexed equality find the values as written.
    expect((await rows.find({ status: 'settled', note: awkward }, { sort: { _id: 1 } })).map((row) => row._id)).toEqual(['b', 'c', 'd']);
    expect((await rows.find({ charged: 1e21 }, { sort: { _id: 1 } })).map((row) => row._id)).toEqual(['b', 'c', 'd']);
    // What SQL would not spell as JavaScript does goes through JavaScript: surrogates, booleans, nested paths.
    await rows.updateMany({ _id: 'c' }, { $set: { note: 'emoji 🎉 lone \ud800', status: false, 'nested.at': 'y' } });
    expect(await rows.findOne({ _id: 'c' })).toEqual({ ...expected[2], note: 'emoji 🎉 lone \ud800', status: false, nested: { at: 'y' } });
    await store.close();
  });
});

describe('embedded store transactions', () => {
  it('keeps other operations out until the transaction ends', async () => {
    const store = await openEmbeddedStore(dir);
    const notes = store.collection<Note>('notes');
    await notes.insertOne({ _id: 'a', text: 'before' });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = store.withTransaction(async (tx) => {
      await tx.collection<Note>('notes').updateOne({ _id: 'a' }, { $set: { text: 'inside' } });
      await held;
      await tx.collection<Note>('notes').updateOne({ _id: 'a' }, { $set: { text: 'committed' } });
    });
    const outside = notes.findOne({ _id: 'a' });
    release();
    await transaction;
    // Issued while the transaction was open, answered after it: never the uncommitted 'inside'.
    expect(await outside).toMatchObject({ text: 'committed' });
    await store.close();
  });

  it("fails the store's own collections inside a transaction once the wait stalls, and the transaction's after it", async () => {
    const store = await openEmbeddedStore(dir, { transactionStallMs: 200 });
    let escaped: StoreScope | undefined;
    await expect(
      store.withTransaction(async (tx) => {
        escaped = tx;
        await tx.collection<Note>('notes').insertOne({ _id: 'rolled-back', text: 'x' });
        await store.collection<Note>('notes').insertOne({ _id: 'deadlock', text: 'x' });
      }),
    ).rejects.toThrow(/tx.collection/);
    await expect(escaped!.collection<Note>('notes').insertOne({ _id: 'late', text: 'x' })).rejects.toThrow(/transaction has ended/);
    expect(await store.collection<Note>('notes').countDocuments()).toBe(0);
    await store.close();
  });

  it('keeps waiting, past the stall limit, for a transaction that keeps running statements', async () => {
    const store = await openEmbeddedStore(dir, { transactionStallMs: 200 });
    const notes = store.collection<Note>('notes');
    await notes.insertOne({ _id: 'a', text: 'v0' });
    const transaction = store.withTransaction(async (tx) => {
      for (let i = 1; i <= 30; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        await tx.collection<Note>('notes').updateOne({ _id: 'a' }, { $set: { text: `v${i}` } });
      }
    });
    // Waits 600 ms or more, three times the limit, and is answered after the commit.
    await expect(notes.findOne({ _id: 'a' })).resolves.toMatchObject({ text: 'v30' });
    await transaction;
    await store.close();
  });

  it('rolls back collections and indexes created inside a failed transaction', async () => {
    const store = await openEmbeddedStore(dir);
    await expect(
      store.withTransaction(async (tx) => {
        const fresh = tx.collection<Note>('fresh');
        await fresh.createIndexes([{ key: { text: 1 }, unique: true }]);
        await fresh.insertOne({ _id: 'a', text: 'same' });
        throw new Error('abandon');
      }),
    ).rejects.toThrow('abandon');
    const fresh = store.collection<Note>('fresh');
    expect(await fresh.countDocuments()).toBe(0);
    await fresh.insertOne({ _id: 'a', text: 'same' });
    await fresh.insertOne({ _id: 'b', text: 'same' });
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

  it("keeps an inserted document as JSON's copy of it, apart from the object handed in", async () => {
    const store = await openEmbeddedStore(dir);
    const notes = store.collection<StoreDocument & Record<string, unknown>>('notes');
    const doc = { _id: 'u', gone: undefined, list: [1, undefined], zero: -0, nested: { kept: 'yes' } };
    await notes.insertOne(doc);
    doc.nested.kept = 'changed afterwards';
    doc.list.push(2);
    expect(await notes.findOne({ _id: 'u' })).toEqual({ _id: 'u', list: [1, null], zero: 0, nested: { kept: 'yes' } });
    expect(Object.keys((await notes.findOne({ _id: 'u' }))!)).not.toContain('gone');
    await store.close();
  });

  it("keeps its WAL to about SQLite's checkpoint threshold while written without pause (ADR 0106)", async () => {
    const store = await openEmbeddedStore(dir);
    const notes = store.collection<Note>('notes');
    // 4,000 commits of 1 KB, awaited one after another: 44 MiB of WAL without checkpoints.
    for (let i = 0; i < 4_000; i++) await notes.insertOne({ _id: `n${i}`, text: 'x'.repeat(1_000) });
    // The only connection checkpoints at 1,000 pages (4 MiB) with no writer beside it, so the WAL
    // starts over each time instead of growing; the documents are in the database file.
    expect((await stat(join(dir, `${DATABASE_FILE}-wal`))).size).toBeLessThan(8 * 1024 * 1024);
    expect((await stat(join(dir, DATABASE_FILE))).size).toBeGreaterThan(4_000_000);
    expect(await notes.countDocuments({})).toBe(4_000);
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
    expect(await readdir(dir)).not.toContain('LOCK');
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

  it('lets a process that opened and closed a store exit by itself', {
    timeout: 120_000,
  }, async () => {
    const storeModule = new URL('./embedded-store.ts', import.meta.url).pathname;
    const source = `import { openEmbeddedStore } from ${JSON.stringify(storeModule)};
const store = await openEmbeddedStore(${JSON.stringify(join(dir, 'data'))});
await store.collection('notes').insertOne({ _id: 'a' });
await store.close();`;
    // A tsx child starts in about 2 s alone and took over 20 s at a load average of 20: a wide limit.
    expect(await runModuleToExit(source, dir, 100_000)).toEqual({ code: 0, signal: null });
  });

  it('releases the directory when opening fails', async () => {
    await writeFile(join(dir, DATABASE_FILE), 'garbage'.repeat(100));
    await expect(openEmbeddedStore(dir)).rejects.toThrow(/not a database/);
    expect(await readdir(dir)).not.toContain('LOCK');
  });
});
