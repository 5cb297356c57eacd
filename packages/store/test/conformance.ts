import { afterEach, assert, beforeEach, describe, expect, it } from 'vitest';
import { DuplicateKeyError } from '../src/errors';
import { createLogger } from '@vrs/kit';
import type { Collection, Store, StoreDocument } from '../src/port';
import { deleteInBatches } from '../src/delete-in-batches';
import { createRetentionSweeper, deleteExpired, type ExpiringDocument, expiresAt, expiryIndex } from '../src/retention';

interface Item extends StoreDocument {
  name: string;
  rank: number;
  group?: string;
  tags?: string[];
  nested?: { a?: number; b?: number };
}

interface Account extends StoreDocument {
  balance: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The behaviour every adapter must share. `open` gives a fresh, empty store per test.
 * With `skipReason` the whole suite is skipped and the reason is part of its name.
 */
export function describeStoreConformance(name: string, open: () => Promise<Store>, skipReason?: string): void {
  describe.skipIf(skipReason !== undefined)(skipReason ? `${name} (${skipReason})` : name, () => {
    let store: Store;
    let items: Collection<Item>;

    beforeEach(async () => {
      store = await open();
      items = store.collection<Item>('items');
    });

    afterEach(async () => {
      await store.close();
    });

    const seed = () =>
      items.insertMany([
        { _id: 'a', name: 'alpha', rank: 3, group: 'x', tags: ['t1'] },
        { _id: 'b', name: 'bravo', rank: 1, group: 'y' },
        { _id: 'c', name: 'charlie', rank: 2, group: 'x' },
        { _id: 'd', name: 'delta', rank: 5, group: 'y' },
      ]);

    describe('insert and find', () => {
      it('finds by _id, by field and by operators', async () => {
        await seed();
        expect(await items.findOne({ _id: 'c' })).toEqual({ _id: 'c', name: 'charlie', rank: 2, group: 'x' });
        expect(await items.findOne({ _id: 'zz' })).toBeNull();
        expect(await items.findOne({ _id: 'c', rank: { $gt: 2 } })).toBeNull();
        const ids = (await items.find({ rank: { $gte: 2 }, group: 'x' }, { sort: { _id: 1 } })).map((doc) => doc._id);
        expect(ids).toEqual(['a', 'c']);
        const inList = await items.find({ _id: { $in: ['d', 'a', 'nope'] } }, { sort: { _id: 1 } });
        expect(inList.map((doc) => doc._id)).toEqual(['a', 'd']);
        expect(await items.find({ tags: 't1' })).toHaveLength(1);
      });

      it('sorts, skips and limits', async () => {
        await seed();
        const page = await items.find({}, { sort: { rank: -1 }, skip: 1, limit: 2 });
        expect(page.map((doc) => doc._id)).toEqual(['a', 'c']);
        const byGroup = await items.find({}, { sort: { group: 1, rank: -1 } });
        expect(byGroup.map((doc) => doc._id)).toEqual(['a', 'c', 'd', 'b']);
        expect((await items.findOne({ group: 'y' }, { sort: { rank: -1 } }))?._id).toBe('d');
        expect(await items.find({}, { limit: 0 })).toHaveLength(4);
      });

      it('projects fields in and out', async () => {
        await items.insertOne({ _id: 'p', name: 'papa', rank: 1, nested: { a: 1, b: 2 } });
        expect(await items.findOne({ _id: 'p' }, { projection: { name: 1 } })).toEqual({ _id: 'p', name: 'papa' });
        expect(await items.findOne({ _id: 'p' }, { projection: { name: 1, _id: 0 } })).toEqual({ name: 'papa' });
        expect(await items.findOne({ _id: 'p' }, { projection: { _id: 0 } })).toEqual({ name: 'papa', rank: 1, nested: { a: 1, b: 2 } });
        expect(await items.findOne({ _id: 'p' }, { projection: { name: 1, group: 1, nested: 1 } })).toEqual({
          _id: 'p',
          name: 'papa',
          nested: { a: 1, b: 2 },
        });
        expect(await items.findOne({ _id: 'p' }, { projection: { 'nested.b': 1 } })).toEqual({ _id: 'p', nested: { b: 2 } });
        expect(await items.find({}, { projection: { 'nested.a': 0, rank: 0 } })).toEqual([{ _id: 'p', name: 'papa', nested: { b: 2 } }]);
        // Projection never reaches the stored document.
        expect(await items.findOne({ _id: 'p' })).toEqual({ _id: 'p', name: 'papa', rank: 1, nested: { a: 1, b: 2 } });
      });

      it('counts documents', async () => {
        await seed();
        expect(await items.countDocuments()).toBe(4);
        expect(await items.countDocuments({ group: 'x' })).toBe(2);
        expect(await items.countDocuments({ _id: 'b' })).toBe(1);
        expect(await items.countDocuments({ _id: 'b', group: 'x' })).toBe(0);
      });

      it('returns and stores copies', async () => {
        const doc = { _id: 'm', name: 'mike', rank: 1, tags: ['a'], nested: { a: 1 } } satisfies Item;
        await items.insertOne(doc);
        doc.tags.push('mutated');
        doc.nested.a = 99;
        const found = await items.findOne({ _id: 'm' });
        assert(found?.tags && found.nested, 'the document as inserted');
        found.tags.push('mutated');
        found.nested.a = 42;
        found.name = 'changed';
        const [listed] = await items.find({});
        assert(listed?.tags, 'the document as listed');
        listed.tags.length = 0;
        const updated = await items.findOneAndUpdate({ _id: 'm' }, { $inc: { rank: 1 } });
        assert(updated?.nested, 'the document as updated');
        updated.nested.a = 7;
        const [aggregated] = await items.aggregate<Item>([{ $match: { _id: 'm' } }]);
        assert(aggregated?.tags, 'the document as aggregated');
        aggregated.tags.push('mutated');
        expect(await items.findOne({ _id: 'm' })).toEqual({ _id: 'm', name: 'mike', rank: 2, tags: ['a'], nested: { a: 1 } });
      });

      it('drops undefined fields', async () => {
        await items.insertOne({ _id: 'u', name: 'uniform', rank: 1, group: undefined });
        expect(await items.findOne({ _id: 'u' })).toEqual({ _id: 'u', name: 'uniform', rank: 1 });
        expect(await items.countDocuments({ group: { $exists: true } })).toBe(0);
      });
    });

    describe('duplicate keys', () => {
      it('refuses a second document with the same _id and keeps the first', async () => {
        await items.insertOne({ _id: 'a', name: 'first', rank: 1 });
        const error = await items.insertOne({ _id: 'a', name: 'second', rank: 2 }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DuplicateKeyError);
        expect((error as DuplicateKeyError).code).toBe(11000);
        expect(await items.find({})).toEqual([{ _id: 'a', name: 'first', rank: 1 }]);
      });

      it('enforces a unique index on insert and update, leaving no trace of the failed write', async () => {
        await items.createIndexes([{ key: { name: 1 }, unique: true }]);
        await items.createIndexes([{ key: { name: 1 }, unique: true }]);
        await items.insertOne({ _id: 'a', name: 'same', rank: 1 });
        await items.insertOne({ _id: 'b', name: 'other', rank: 1 });
        const error = await items.insertOne({ _id: 'c', name: 'same', rank: 2 }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DuplicateKeyError);
        expect((error as DuplicateKeyError).keyPattern).toEqual({ name: 1 });
        expect(await items.findOne({ _id: 'c' })).toBeNull();
        await expect(items.updateOne({ _id: 'b' }, { $set: { name: 'same', rank: 9 } })).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await items.findOne({ _id: 'b' })).toEqual({ _id: 'b', name: 'other', rank: 1 });
        // The old key is released by an update and a delete.
        await items.updateOne({ _id: 'b' }, { $set: { name: 'renamed' } });
        await items.insertOne({ _id: 'c', name: 'other', rank: 3 });
        await items.deleteOne({ _id: 'a' });
        await items.insertOne({ _id: 'e', name: 'same', rank: 4 });
        expect(await items.countDocuments()).toBe(3);
      });

      it('enforces compound unique indexes on the combination only', async () => {
        await items.createIndexes([{ key: { group: 1, rank: -1 }, unique: true, name: 'group_rank' }]);
        await items.insertOne({ _id: 'a', name: 'n', group: 'x', rank: 1 });
        await items.insertOne({ _id: 'b', name: 'n', group: 'x', rank: 2 });
        await items.insertOne({ _id: 'c', name: 'n', group: 'y', rank: 1 });
        await expect(items.insertOne({ _id: 'd', name: 'n', group: 'y', rank: 1 })).rejects.toBeInstanceOf(DuplicateKeyError);
        // 1 and "1" are different keys.
        await items.insertOne({ _id: 'e', name: 'n', group: 'y', rank: '1' as unknown as number });
        expect(await items.countDocuments()).toBe(4);
      });

      it('treats a missing unique field as null unless a partial filter leaves it out', async () => {
        const plain = store.collection<Item>('plain');
        await plain.createIndexes([{ key: { group: 1 }, unique: true }]);
        await plain.insertOne({ _id: 'a', name: 'n', rank: 1 });
        await expect(plain.insertOne({ _id: 'b', name: 'n', rank: 1 })).rejects.toBeInstanceOf(DuplicateKeyError);

        await items.createIndexes([
          { key: { group: 1 }, unique: true, name: 'group_present', partialFilterExpression: { group: { $exists: true } } },
        ]);
        await items.insertMany([
          { _id: 'a', name: 'n', rank: 1 },
          { _id: 'b', name: 'n', rank: 2 },
          { _id: 'c', name: 'n', rank: 3, group: 'key' },
        ]);
        await expect(items.insertOne({ _id: 'd', name: 'n', rank: 4, group: 'key' })).rejects.toBeInstanceOf(DuplicateKeyError);
        await expect(items.updateOne({ _id: 'a' }, { $set: { group: 'key' } })).rejects.toBeInstanceOf(DuplicateKeyError);
        await items.updateOne({ _id: 'c' }, { $unset: { group: '' } });
        await items.updateOne({ _id: 'a' }, { $set: { group: 'key' } });
        expect(await items.countDocuments({ group: 'key' })).toBe(1);
      });

      it('refuses to create a unique index over duplicated values', async () => {
        await items.insertMany([
          { _id: 'a', name: 'same', rank: 1 },
          { _id: 'b', name: 'same', rank: 2 },
        ]);
        await expect(items.createIndexes([{ key: { name: 1 }, unique: true }])).rejects.toBeInstanceOf(DuplicateKeyError);
        await items.insertOne({ _id: 'c', name: 'same', rank: 3 });
      });

      it('inserts many in order and stops at the first duplicate', async () => {
        await items.insertOne({ _id: 'b', name: 'existing', rank: 0 });
        const error = await items
          .insertMany([
            { _id: 'a', name: 'n', rank: 1 },
            { _id: 'b', name: 'n', rank: 2 },
            { _id: 'c', name: 'n', rank: 3 },
          ])
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DuplicateKeyError);
        expect((await items.find({}, { sort: { _id: 1 } })).map((doc) => [doc._id, doc.rank])).toEqual([
          ['a', 1],
          ['b', 0],
        ]);
      });
    });

    describe('updates', () => {
      it('applies update operators and reports matched and modified counts', async () => {
        await items.insertOne({ _id: 'a', name: 'n', rank: 1, tags: ['x'], nested: { a: 1 } });
        const result = await items.updateOne(
          { _id: 'a' },
          { $inc: { rank: 2, 'nested.b': 5 }, $push: { tags: 'y' }, $set: { group: 'g' }, $unset: { 'nested.a': '' } },
        );
        expect(result).toEqual({ matchedCount: 1, modifiedCount: 1 });
        expect(await items.updateOne({ _id: 'a' }, { $addToSet: { tags: 'x' } })).toEqual({ matchedCount: 1, modifiedCount: 0 });
        expect(await items.findOne({ _id: 'a' })).toEqual({ _id: 'a', name: 'n', rank: 3, group: 'g', tags: ['x', 'y'], nested: { b: 5 } });
        expect(await items.updateOne({ _id: 'a' }, { $set: { rank: 3 } })).toEqual({ matchedCount: 1, modifiedCount: 0 });
        expect(await items.updateOne({ _id: 'nope' }, { $set: { rank: 3 } })).toEqual({ matchedCount: 0, modifiedCount: 0 });
        await items.updateOne({ tags: 'y' }, { $set: { 'tags.$': 'z' } });
        expect((await items.findOne({ _id: 'a' }))?.tags).toEqual(['x', 'z']);
      });

      it('refuses overlapping paths and unknown operators, changing nothing', async () => {
        await items.insertOne({ _id: 'a', name: 'n', rank: 1, tags: ['x'], nested: { a: 1 } });
        await expect(items.updateOne({ _id: 'a' }, { $push: { tags: 'y' }, $addToSet: { tags: 'z' } })).rejects.toThrow(/conflict/i);
        await expect(items.updateOne({ _id: 'a' }, { $set: { nested: {} }, $inc: { 'nested.a': 1 } })).rejects.toThrow(/conflict/i);
        await expect(items.updateOne({ _id: 'a' }, { $frobnicate: { rank: 1 } })).rejects.toThrow();
        expect(await items.findOne({ _id: 'a' })).toEqual({ _id: 'a', name: 'n', rank: 1, tags: ['x'], nested: { a: 1 } });
      });

      it('updates and deletes many', async () => {
        await seed();
        expect(await items.updateMany({ group: 'x' }, { $inc: { rank: 10 } })).toEqual({ matchedCount: 2, modifiedCount: 2 });
        expect(await items.updateMany({ group: 'x' }, { $set: { name: 'same' } })).toEqual({ matchedCount: 2, modifiedCount: 2 });
        expect(await items.updateMany({ group: 'x' }, { $set: { name: 'same' } })).toEqual({ matchedCount: 2, modifiedCount: 0 });
        expect((await items.find({ rank: { $gt: 10 } }, { sort: { rank: 1 } })).map((doc) => doc.rank)).toEqual([12, 13]);
        expect(await items.deleteOne({ group: 'y' })).toEqual({ deletedCount: 1 });
        expect(await items.deleteOne({ _id: 'nope' })).toEqual({ deletedCount: 0 });
        expect(await items.deleteMany({ group: 'x' })).toEqual({ deletedCount: 2 });
        expect(await items.countDocuments()).toBe(1);
        expect(await items.deleteMany({})).toEqual({ deletedCount: 1 });
        expect(await items.find({})).toEqual([]);
      });

      it('raises a number with $max as MongoDB orders values (missing and null below numbers, text above), whatever the filter', async () => {
        const ranks = { lower: 1, higher: 9, equal: 5, null: null, missing: undefined, text: 'high' } as const;
        // A filter on ids, which the embedded adapter may run in SQL, and a pattern, which it cannot.
        for (const group of ['listed', 'pattern']) {
          await items.insertMany(
            Object.entries(ranks).map(
              ([name, rank]) => ({ _id: `${group}-${name}`, name, group, ...(rank !== undefined && { rank }) }) as Item,
            ),
          );
        }
        const listed = { _id: { $in: Object.keys(ranks).map((name) => `listed-${name}`) } };
        for (const filter of [listed, { _id: { $regex: '^pattern-' } }]) {
          expect(await items.updateMany(filter, { $max: { rank: 5 } })).toEqual({ matchedCount: 6, modifiedCount: 3 });
          const stored = await items.find(filter, { sort: { _id: 1 } });
          expect(Object.fromEntries(stored.map((doc) => [doc.name, doc.rank]))).toEqual({
            lower: 5,
            higher: 9,
            equal: 5,
            null: 5,
            missing: 5,
            text: 'high',
          });
          expect(await items.updateMany(filter, { $max: { rank: 5 } })).toEqual({ matchedCount: 6, modifiedCount: 0 });
        }
        expect(await items.countDocuments({ ...listed, rank: 5 })).toBe(4);
      });

      it('deletes every match in batches, and nothing else; again it deletes nothing', async () => {
        await items.insertMany(
          Array.from({ length: 25 }, (_, n) => ({ _id: `m${n}`, name: `n${n}`, rank: n, group: n % 5 === 0 ? 'keep' : 'drop' })),
        );
        expect(await deleteInBatches(items, { group: 'drop' }, 7)).toBe(20);
        expect(await deleteInBatches(items, { group: 'drop' }, 7)).toBe(0);
        expect((await items.find({}, { sort: { rank: 1 } })).map((doc) => doc._id)).toEqual(['m0', 'm5', 'm10', 'm15', 'm20']);
      });

      it('upserts with $setOnInsert and the filter equality fields', async () => {
        const counters = store.collection<StoreDocument & { account: string; day: string; count: number; createdAt: string }>('counters');
        const filter = { account: 'acc-1', day: { $eq: '2026-01-02' } };
        const update = { $inc: { count: 1 }, $setOnInsert: { createdAt: '2026-01-02T00:00:00.000Z' } };
        const first = await counters.updateOne(filter, update, { upsert: true });
        expect(first).toMatchObject({ matchedCount: 0, modifiedCount: 0 });
        expect(first.upsertedId).toMatch(UUID);
        const second = await counters.updateOne(filter, { ...update, $setOnInsert: { createdAt: 'later' } }, { upsert: true });
        expect(second).toEqual({ matchedCount: 1, modifiedCount: 1 });
        expect(await counters.find({})).toEqual([
          { _id: first.upsertedId, account: 'acc-1', day: '2026-01-02', count: 2, createdAt: '2026-01-02T00:00:00.000Z' },
        ]);
        // Only $setOnInsert, on a match: nothing to change.
        expect(await counters.updateOne(filter, { $setOnInsert: { count: 0 } }, { upsert: true })).toEqual({
          matchedCount: 1,
          modifiedCount: 0,
        });
      });

      it('upserts with the _id of the filter or of $setOnInsert', async () => {
        const byFilter = await items.updateOne({ _id: 'f' }, { $set: { name: 'n', rank: 1 } }, { upsert: true });
        expect(byFilter.upsertedId).toBe('f');
        const byUpdate = await items.updateOne({ name: 'u' }, { $setOnInsert: { _id: 'u1', rank: 2 } }, { upsert: true });
        expect(byUpdate.upsertedId).toBe('u1');
        expect(await items.find({}, { sort: { _id: 1 } })).toEqual([
          { _id: 'f', name: 'n', rank: 1 },
          { _id: 'u1', name: 'u', rank: 2 },
        ]);
        await expect(items.updateOne({ _id: 'f2' }, { $set: { name: 'n' } })).resolves.toEqual({ matchedCount: 0, modifiedCount: 0 });
        expect(await items.countDocuments()).toBe(2);
      });

      it('refuses an upsert that clashes with a unique index', async () => {
        await items.createIndexes([{ key: { name: 1 }, unique: true }]);
        await items.insertOne({ _id: 'a', name: 'taken', rank: 1 });
        await expect(items.updateOne({ rank: 5 }, { $set: { name: 'taken' } }, { upsert: true })).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await items.countDocuments()).toBe(1);
      });
    });

    describe('findOneAndUpdate', () => {
      let accounts: Collection<Account>;
      beforeEach(() => {
        accounts = store.collection<Account>('accounts');
      });

      it('debits only when the balance covers it', async () => {
        await accounts.insertOne({ _id: 'acc', balance: 3 });
        expect(await accounts.findOneAndUpdate({ _id: 'acc', balance: { $gte: 5 } }, { $inc: { balance: -5 } })).toBeNull();
        expect(await accounts.findOne({ _id: 'acc' })).toEqual({ _id: 'acc', balance: 3 });
        await accounts.updateOne({ _id: 'acc' }, { $inc: { balance: 7 } });
        expect(await accounts.findOneAndUpdate({ _id: 'acc', balance: { $gte: 5 } }, { $inc: { balance: -5 } })).toEqual({
          _id: 'acc',
          balance: 5,
        });
        expect(
          await accounts.findOneAndUpdate({ _id: 'acc', balance: { $gte: 5 } }, { $inc: { balance: -5 } }, { returnDocument: 'before' }),
        ).toEqual({ _id: 'acc', balance: 5 });
        expect(await accounts.findOne({ _id: 'acc' })).toEqual({ _id: 'acc', balance: 0 });
      });

      it('lets exactly as many concurrent debits succeed as the balance allows', async () => {
        await accounts.insertOne({ _id: 'acc', balance: 50 });
        const results = await Promise.all(
          Array.from({ length: 200 }, () => accounts.findOneAndUpdate({ _id: 'acc', balance: { $gte: 1 } }, { $inc: { balance: -1 } })),
        );
        expect(results.filter((result) => result !== null)).toHaveLength(50);
        expect(await accounts.findOne({ _id: 'acc' })).toEqual({ _id: 'acc', balance: 0 });
      });

      it('takes the first match in sort order (a queue claim)', async () => {
        await seed();
        const claimed = await items.findOneAndUpdate(
          { group: 'y', tags: { $exists: false } },
          { $set: { tags: ['claimed'] } },
          { sort: { rank: -1 } },
        );
        expect(claimed).toMatchObject({ _id: 'd', tags: ['claimed'] });
        const next = await items.findOneAndUpdate(
          { group: 'y', tags: { $exists: false } },
          { $set: { tags: ['claimed'] } },
          { sort: { rank: -1 } },
        );
        expect(next?._id).toBe('b');
      });

      it('upserts and returns the document before (null) or after', async () => {
        expect(
          await accounts.findOneAndUpdate({ _id: 'new1' }, { $setOnInsert: { balance: 10 } }, { upsert: true, returnDocument: 'before' }),
        ).toBeNull();
        expect(await accounts.findOneAndUpdate({ _id: 'new2' }, { $inc: { balance: 4 } }, { upsert: true })).toEqual({
          _id: 'new2',
          balance: 4,
        });
        const generated = await accounts.findOneAndUpdate({ balance: 99 }, { $set: { note: 'x' } }, { upsert: true });
        expect(generated).toMatchObject({ balance: 99, note: 'x' });
        expect(generated?._id).toMatch(UUID);
        expect(await accounts.countDocuments()).toBe(3);
      });
    });

    describe('aggregate', () => {
      it('matches, groups and sorts', async () => {
        await seed();
        const groups = await items.aggregate<{ _id: string; total: number; count: number }>([
          { $match: { rank: { $gte: 1 }, group: { $exists: true } } },
          { $group: { _id: '$group', total: { $sum: '$rank' }, count: { $sum: 1 } } },
          { $sort: { total: -1 } },
        ]);
        expect(groups).toEqual([
          { _id: 'y', total: 6, count: 2 },
          { _id: 'x', total: 5, count: 2 },
        ]);
      });

      it('computes on copies and looks up other collections', async () => {
        await items.insertOne({ _id: 'n', name: 'november', rank: 1, group: 'x', nested: { a: 1 } });
        await store.collection<StoreDocument & { label: string }>('groups').insertMany([
          { _id: 'x', label: 'Ex' },
          { _id: 'y', label: 'Why' },
        ]);
        const joined = await items.aggregate<{ _id: string; info: Array<{ label: string }> }>([
          { $match: { _id: 'n' } },
          { $set: { 'nested.a': 2 } },
          { $lookup: { from: 'groups', localField: 'group', foreignField: '_id', as: 'info' } },
          { $project: { info: 1 } },
        ]);
        expect(joined).toEqual([{ _id: 'n', info: [{ _id: 'x', label: 'Ex' }] }]);
        expect((await items.findOne({ _id: 'n' }))?.nested).toEqual({ a: 1 });
      });
    });

    describe('queries on declared indexes', () => {
      interface Version extends StoreDocument {
        kind: unknown;
        key: unknown;
        at?: unknown;
      }
      let versions: Collection<Version>;
      beforeEach(async () => {
        versions = store.collection<Version>('versions');
        await versions.createIndexes([{ key: { kind: 1, key: 1, at: -1 }, name: 'kind_key_newest_first' }]);
        await versions.insertMany([
          { _id: 'v1', kind: 'video', key: 'k', at: '2026-01-01' },
          { _id: 'v2', kind: 'video', key: 'k', at: '2026-01-03' },
          { _id: 'v3', kind: 'video', key: 'k', at: '2026-01-02' },
          { _id: 'v4', kind: 'video', key: 'other', at: '2026-01-09' },
          { _id: 'v5', kind: 'video', key: 'k', at: 5 },
          { _id: 'v6', kind: 'video', key: 'k' },
          { _id: 'v7', kind: 'video', key: 'k', at: null },
        ]);
      });

      it('answers equality prefixes with sorts, ranges and pages as MongoDB does', async () => {
        expect((await versions.findOne({ kind: 'video', key: 'k' }, { sort: { at: -1 } }))?._id).toBe('v2');
        const ascending = await versions.find({ kind: 'video', key: 'k' }, { sort: { at: 1, _id: 1 } });
        // Missing and null first, then numbers, then strings.
        expect(ascending.map((doc) => doc._id)).toEqual(['v6', 'v7', 'v5', 'v1', 'v3', 'v2']);
        const strings = await versions.find({ kind: 'video', key: 'k', at: { $gt: '2026-01-01' } }, { sort: { at: -1 } });
        expect(strings.map((doc) => doc._id)).toEqual(['v2', 'v3']);
        expect((await versions.find({ key: 'k', at: { $lt: '2026-01-03' } }, { sort: { at: 1 } })).map((doc) => doc._id)).toEqual([
          'v1',
          'v3',
        ]);
        expect((await versions.find({ at: { $gte: 0 } })).map((doc) => doc._id)).toEqual(['v5']);
        expect((await versions.find({ at: null }, { sort: { _id: 1 } })).map((doc) => doc._id)).toEqual(['v6', 'v7']);
        expect(await versions.countDocuments({ kind: 'video', key: { $in: ['k', 'other'] } })).toBe(7);
        const page = await versions.find({ kind: 'video' }, { sort: { at: -1, _id: 1 }, skip: 1, limit: 2 });
        expect(page.map((doc) => doc._id)).toEqual(['v2', 'v3']);
        expect(await versions.deleteMany({ kind: 'video', key: 'k', at: { $lte: '2026-01-02' } })).toEqual({ deletedCount: 2 });
        expect(await versions.countDocuments()).toBe(5);
      });

      it('finds the newest after an empty page of the same query shape', async () => {
        const newestFirst = { sort: { at: -1 as const, _id: -1 as const } };
        expect(await versions.find({ kind: 'video', key: 'k' }, { ...newestFirst, skip: 10 })).toEqual([]);
        expect((await versions.findOne({ kind: 'video', key: 'k' }, newestFirst))?._id).toBe('v2');
      });

      it('answers $or alternatives, such as a keyset cursor, as MongoDB does', async () => {
        const after = { at: '2026-01-02', id: 'v3' };
        await versions.insertOne({ _id: 'v0', kind: 'video', key: 'k', at: '2026-01-02' });
        const cursor = { $or: [{ at: { $lt: after.at } }, { at: after.at, _id: { $lt: after.id } }] };
        const page = await versions.find({ $and: [{ kind: 'video', key: 'k' }, cursor] }, { sort: { at: -1, _id: -1 }, limit: 2 });
        expect(page.map((doc) => doc._id)).toEqual(['v0', 'v1']);
        const mixed = await versions.find({ $or: [{ key: 'other' }, { at: { $exists: false } }] }, { sort: { _id: 1 } });
        expect(mixed.map((doc) => doc._id)).toEqual(['v4', 'v6']);
        const unindexed = await versions.find({ $or: [{ missing: 'x' }, { _id: 'v5' }] } as Record<string, unknown>);
        expect(unindexed.map((doc) => doc._id)).toEqual(['v5']);
      });

      it('still matches array elements and keeps types apart on indexed paths', async () => {
        await versions.insertMany([
          { _id: 'w1', kind: ['video', 'short'], key: 'k', at: '2026-02-01' },
          { _id: 'w2', kind: 'video', key: 1, at: '2026-02-02' },
          { _id: 'w3', kind: 'video', key: '1', at: '2026-02-03' },
          { _id: 'w4', kind: true, key: 1, at: '2026-02-04' },
        ]);
        expect((await versions.findOne({ kind: 'video', key: 'k' }, { sort: { at: -1 } }))?._id).toBe('w1');
        expect((await versions.find({ kind: 'short' })).map((doc) => doc._id)).toEqual(['w1']);
        expect((await versions.find({ key: 1 }, { sort: { at: 1 } })).map((doc) => doc._id)).toEqual(['w2', 'w4']);
        expect((await versions.find({ kind: 1 })).map((doc) => doc._id)).toEqual([]);
        expect((await versions.find({ kind: true })).map((doc) => doc._id)).toEqual(['w4']);
      });

      it('keeps true apart from 1 and false from 0 on an indexed path holding booleans', async () => {
        const flags = store.collection<StoreDocument & { on?: unknown; at: number }>('flags');
        await flags.createIndexes([{ key: { on: 1, at: 1 }, name: 'on_at' }]);
        await flags.insertMany([
          { _id: 'f1', on: true, at: 3 },
          { _id: 'f2', on: 1, at: 1 },
          { _id: 'f3', on: false, at: 2 },
          { _id: 'f4', on: 0, at: 4 },
          { _id: 'f5', on: null, at: 5 },
          { _id: 'f6', at: 6 },
          { _id: 'f7', on: 'true', at: 7 },
          { _id: 'f8', on: true, at: 0 },
        ]);
        const ids = async (filter: Record<string, unknown>) => (await flags.find(filter, { sort: { at: 1 } })).map((doc) => doc._id);
        expect(await ids({ on: true })).toEqual(['f8', 'f1']);
        expect(await ids({ on: true, at: { $gte: 1 } })).toEqual(['f1']);
        expect(await ids({ on: { $eq: false } })).toEqual(['f3']);
        expect(await ids({ on: 1 })).toEqual(['f2']);
        expect(await ids({ on: 0 })).toEqual(['f4']);
        expect(await ids({ on: { $ne: true } })).toEqual(['f2', 'f3', 'f4', 'f5', 'f6', 'f7']);
        expect(await ids({ $or: [{ on: true }, { on: 'true' }] })).toEqual(['f8', 'f1', 'f7']);
        expect(await flags.countDocuments({ on: false })).toBe(1);
        expect((await flags.findOne({ on: true }, { sort: { at: -1 } }))?._id).toBe('f1');
      });
    });

    describe('write stamp', () => {
      it('is unknown, or stays the same across reads and changes with every kind of write', async () => {
        const stamp = store.writeStamp();
        if (stamp === undefined) return;
        await seed();
        const stamps = [store.writeStamp()];
        await items.find({ group: 'x' });
        await items.findOne({ _id: 'a' });
        await items.countDocuments({});
        expect(store.writeStamp()).toBe(stamps[0]);
        await items.updateOne({ _id: 'a' }, { $set: { rank: 4 } });
        stamps.push(store.writeStamp());
        await items.deleteOne({ _id: 'b' });
        stamps.push(store.writeStamp());
        await store.withTransaction(async (tx) => {
          await tx.collection<Item>('items').insertOne({ _id: 'e', name: 'echo', rank: 6, group: 'y' });
        });
        stamps.push(store.writeStamp());
        expect(new Set([stamp, ...stamps]).size).toBe(5);
      });
    });

    describe('retention', () => {
      const start = Date.parse('2026-03-01T00:00:00.000Z');
      const hour = 60 * 60 * 1000;
      let records: Collection<ExpiringDocument & { note?: string }>;
      beforeEach(async () => {
        records = store.collection('records');
        await records.createIndexes([expiryIndex]);
        await records.insertMany([
          { _id: 'hour', expiresAt: expiresAt(start, hour) },
          { _id: 'day', expiresAt: expiresAt(start, 24 * hour) },
          { _id: 'kept', note: 'no expiresAt: never deleted' },
        ]);
      });

      it('deletes exactly the documents whose expiresAt has passed, at the boundary included', async () => {
        expect(await deleteExpired(records, start + hour - 1)).toBe(0);
        expect(await deleteExpired(records, start + hour)).toBe(1);
        expect((await records.find({}, { sort: { _id: 1 } })).map((doc) => doc._id)).toEqual(['day', 'kept']);
        expect(await deleteExpired(records, start + 365 * 24 * hour)).toBe(1);
        expect((await records.find({})).map((doc) => doc._id)).toEqual(['kept']);
      });

      it('sweeps every collection it is given as the clock advances', async () => {
        const others = store.collection<ExpiringDocument>('other_records');
        await others.createIndexes([expiryIndex]);
        await others.insertOne({ _id: 'other', expiresAt: expiresAt(start, 2 * hour) });
        let now = start;
        const sweeper = createRetentionSweeper({
          collections: { records, other_records: others },
          clock: () => now,
          intervalMs: hour,
          logger: createLogger('retention-conformance'),
        });
        expect(await sweeper.sweepOnce()).toBe(0);
        now = start + 2 * hour;
        expect(await sweeper.sweepOnce()).toBe(2);
        expect(await others.countDocuments()).toBe(0);
        expect((await records.find({}, { sort: { _id: 1 } })).map((doc) => doc._id)).toEqual(['day', 'kept']);
        await sweeper.stop();
      });
    });

    describe('transactions', () => {
      let accounts: Collection<Account>;
      beforeEach(() => {
        accounts = store.collection<Account>('accounts');
      });

      it('commits every write of the transaction together and returns its result', async () => {
        await accounts.insertOne({ _id: 'acc', balance: 10 });
        const result = await store.withTransaction(async (tx) => {
          const held = await tx
            .collection<Account>('accounts')
            .findOneAndUpdate({ _id: 'acc', balance: { $gte: 4 } }, { $inc: { balance: -4 } });
          await tx.collection<Item>('items').insertOne({ _id: 'hold', name: 'hold', rank: 4 });
          // A transaction reads its own writes.
          expect(await tx.collection<Item>('items').countDocuments({ _id: 'hold' })).toBe(1);
          return held?.balance;
        });
        expect(result).toBe(6);
        expect(await accounts.findOne({ _id: 'acc' })).toEqual({ _id: 'acc', balance: 6 });
        expect(await items.findOne({ _id: 'hold' })).toEqual({ _id: 'hold', name: 'hold', rank: 4 });
      });

      it('writes nothing when the work throws, whatever it wrote before', async () => {
        await accounts.insertOne({ _id: 'acc', balance: 10 });
        await items.createIndexes([{ key: { name: 1 }, unique: true }]);
        await items.insertOne({ _id: 'taken', name: 'taken', rank: 1 });
        const error = await store
          .withTransaction(async (tx) => {
            await tx.collection<Account>('accounts').updateOne({ _id: 'acc' }, { $inc: { balance: -4 } });
            await tx.collection<Item>('items').insertOne({ _id: 'new', name: 'new', rank: 1 });
            await tx.collection<Item>('items').insertOne({ _id: 'clash', name: 'taken', rank: 1 });
          })
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DuplicateKeyError);
        expect(await accounts.findOne({ _id: 'acc' })).toEqual({ _id: 'acc', balance: 10 });
        expect(await items.find({}, { sort: { _id: 1 } })).toEqual([{ _id: 'taken', name: 'taken', rank: 1 }]);
      });

      it('serializes concurrent read-modify-write transactions: no update is lost', async () => {
        await accounts.insertOne({ _id: 'acc', balance: 0 });
        await Promise.all(
          Array.from({ length: 20 }, () =>
            store.withTransaction(async (tx) => {
              const current = await tx.collection<Account>('accounts').findOne({ _id: 'acc' });
              assert(current, 'the account inserted first');
              await tx.collection<Account>('accounts').updateOne({ _id: 'acc' }, { $set: { balance: current.balance + 1 } });
            }),
          ),
        );
        expect(await accounts.findOne({ _id: 'acc' })).toEqual({ _id: 'acc', balance: 20 });
      });
    });
  });
}
