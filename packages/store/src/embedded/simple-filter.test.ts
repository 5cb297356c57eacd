import { Query } from 'mingo';
import { describe, expect, it } from 'vitest';
import { compileSimpleFilter } from './simple-filter';

const docs = [
  { _id: 'a', balance: 10, status: 'reserved', name: 'x', flag: true, nested: { n: 3 } },
  { _id: 'b', balance: 4, status: 'settled', name: '10', flag: false },
  { _id: 'c', balance: '12', status: null, tags: ['reserved'], nested: [{ n: 3 }] },
  { _id: 'd' },
];

const filters: Record<string, unknown>[] = [
  { _id: 'a' },
  { _id: 'a', balance: { $gte: 5 } },
  { balance: { $gte: 5 } },
  { balance: { $gt: 4, $lte: 10 } },
  { balance: { $lt: 100 } },
  { name: { $gte: '1' } },
  { status: 'reserved' },
  { status: { $ne: 'reserved' } },
  { status: { $in: ['reserved', 'settled'] } },
  { status: { $nin: ['reserved'] } },
  { status: { $exists: true } },
  { status: { $exists: false } },
  { flag: true },
  { flag: { $ne: false } },
  { 'nested.n': 3 },
  { tags: 'reserved' },
  { balance: { $eq: 10 }, status: 'reserved' },
];

describe('simple filter matcher', () => {
  it('agrees with mingo wherever it decides', () => {
    let decided = 0;
    for (const filter of filters) {
      const match = compileSimpleFilter(filter);
      expect(match, JSON.stringify(filter)).toBeDefined();
      const query = new Query(filter);
      for (const doc of docs) {
        const result = match!(doc);
        if (result === undefined) continue;
        decided++;
        expect(result, `${JSON.stringify(filter)} on ${doc._id}`).toBe(query.test(doc));
      }
    }
    expect(decided).toBeGreaterThan(filters.length * 2);
  });

  it('declines filters whose semantics need the full engine', () => {
    for (const filter of [
      { $or: [{ a: 1 }] },
      { a: null },
      { a: { $elemMatch: { b: 1 } } },
      { a: [1, 2] },
      { a: { b: 1 } },
      { a: { $regex: 'x' } },
      { a: { $gte: true } },
    ]) {
      expect(compileSimpleFilter(filter), JSON.stringify(filter)).toBeUndefined();
    }
  });

  it('defers documents with arrays or null in the examined field', () => {
    expect(compileSimpleFilter({ tags: 'reserved' })!(docs[2]!)).toBeUndefined();
    expect(compileSimpleFilter({ status: 'reserved' })!(docs[2]!)).toBeUndefined();
    expect(compileSimpleFilter({ 'nested.n': 3 })!(docs[2]!)).toBeUndefined();
  });
});
