import { getHeapStatistics } from 'node:v8';
import { LRUCache } from 'lru-cache';
import { describe, expect, it } from 'vitest';
import { createEntryLruCache } from './entry-lru-cache';

/** Heap used after building `count` caches, all kept alive until it is read. */
function heapGrowthOf(count: number, build: () => unknown): number {
  const before = getHeapStatistics().used_heap_size;
  const kept = Array.from({ length: count }, build);
  const grown = getHeapStatistics().used_heap_size - before;
  expect(kept).toHaveLength(count);
  return grown;
}

describe('createEntryLruCache', () => {
  it('keeps at most maxEntries entries, dropping the least recently used', () => {
    const cache = createEntryLruCache<string, number>({ maxEntries: 3 });
    for (const [i, key] of ['a', 'b', 'c'].entries()) cache.set(key, i);
    expect(cache.get('a')).toBe(0);
    cache.set('d', 3);
    expect([...cache.keys()].sort()).toEqual(['a', 'c', 'd']);
    expect(cache.size).toBe(3);
    for (let i = 0; i < 1_000; i++) cache.set(`k${i}`, i);
    expect(cache.size).toBe(3);
    expect(cache.has('k999')).toBe(true);
  });

  it('expires entries after their ttl', () => {
    let now = 1_000;
    const cache = createEntryLruCache<string, string>({ maxEntries: 10, ttl: 50, ttlResolution: 0, perf: { now: () => now } });
    cache.set('key', 'value');
    now += 49;
    expect(cache.get('key')).toBe('value');
    now += 2;
    expect(cache.get('key')).toBeUndefined();
  });

  it('allocates for the entries it holds, not for maxEntries', () => {
    // lru-cache given `max` allocates arrays for max entries at once: about 1.6 MB of heap for 100,000.
    const preallocated = heapGrowthOf(10, () => new LRUCache<string, number>({ max: 100_000, ttl: 1_000 }));
    const growing = heapGrowthOf(10, () => createEntryLruCache<string, number>({ maxEntries: 100_000, ttl: 1_000 }));
    expect(preallocated).toBeGreaterThan(10 * 1_000_000);
    expect(growing).toBeLessThan(preallocated / 20);
  });

  it('refuses a bound that is not a whole number of at least one', () => {
    expect(() => createEntryLruCache({ maxEntries: 0 })).toThrow(RangeError);
    expect(() => createEntryLruCache({ maxEntries: 2.5 })).toThrow(RangeError);
  });
});
