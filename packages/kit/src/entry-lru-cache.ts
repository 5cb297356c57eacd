import { LRUCache } from 'lru-cache';

export type EntryLruCacheOptions<K extends {}, V extends {}, FC> = Omit<
  LRUCache.Options<K, V, FC>,
  'max' | 'maxSize' | 'maxEntrySize' | 'sizeCalculation'
> & {
  /** The most entries the cache keeps; the least recently used goes first. */
  maxEntries: number;
};

const oneEntry = () => 1;

/**
 * A least-recently-used cache of at most `maxEntries` entries whose memory grows with the entries it
 * holds. Given `max`, lru-cache allocates its arrays for `max` entries at construction, however few
 * it ever holds; counted as a size of 1 each under `maxSize`, the same bound holds and those arrays
 * grow as entries arrive (ADR 0075).
 */
export function createEntryLruCache<K extends {}, V extends {}, FC = unknown>(options: EntryLruCacheOptions<K, V, FC>): LRUCache<K, V, FC> {
  const { maxEntries, ...rest } = options;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError(`maxEntries must be a whole number ≥ 1, not ${maxEntries}`);
  return new LRUCache<K, V, FC>({ ...rest, maxSize: maxEntries, sizeCalculation: oneEntry } as LRUCache.Options<K, V, FC>);
}
