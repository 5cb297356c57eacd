import { LRUCache } from 'lru-cache';
import { queryFrequencies } from './query-frequencies';

/** The share of the budget for pages just kept (W-TinyLFU's window): enough for a researcher's few queries asked again in turn. */
const windowShare = 1 / 20;

export interface ResultCacheOptions<V> {
  /** What the pages may hold, with what each keeps alive (`sizeOf`). */
  maxBytes: number;
  sizeOf: (value: V) => number;
  /** Told each page kept, and where (bench/result-cache counts them). */
  onKeep?: (part: 'window' | 'main') => void;
}

export interface ResultCache<V> {
  /** The page kept for `key`, counting the asking either way. */
  get(key: string): V | undefined;
  /** After a miss: keeps `value` for `key` if its query was asked before (ADR 0063), by W-TinyLFU's rules (ADR 0067). */
  offer(key: string, value: V): void;
}

/**
 * Result pages under one byte budget, kept by W-TinyLFU (ADR 0067): a small LRU window of the pages
 * just kept, and a main part whose least recently used page gives its room only to a page whose query
 * was asked more often. Unlike a plain LRU, a cycle of more queries than fit (a dashboard refreshing
 * its saved searches) passes through the window while the main part keeps answering.
 */
export function createResultCache<V extends object>(options: ResultCacheOptions<V>): ResultCache<V> {
  const { maxBytes, sizeOf, onKeep } = options;
  const frequencies = queryFrequencies();
  // lru-cache refuses a size below 1.
  const sizeCalculation = (value: V) => Math.max(1, sizeOf(value));
  const windowBytes = Math.floor(maxBytes * windowShare);
  const main = new LRUCache<string, V>({ maxSize: Math.max(1, maxBytes - windowBytes), sizeCalculation });

  /**
   * A page leaving the window (or too large for it) goes to the main part if there is room, or if its
   * query was asked more often than that of the page it would push out first (W-TinyLFU's rule).
   */
  const admit = (key: string, value: V) => {
    const size = sizeCalculation(value);
    if (size > main.maxSize) return;
    if (main.calculatedSize + size > main.maxSize) {
      const victim = main.rkeys().next().value;
      if (victim !== undefined && frequencies.peek(key) <= frequencies.peek(victim)) return;
    }
    main.set(key, value);
    onKeep?.('main');
  };

  const window =
    windowBytes > 0
      ? new LRUCache<string, V>({
          maxSize: windowBytes,
          sizeCalculation,
          disposeAfter: (value, key, reason) => {
            if (reason === 'evict') admit(key, value);
          },
        })
      : undefined;

  return {
    get(key) {
      frequencies.record(key);
      return window?.get(key) ?? main.get(key);
    },
    offer(key, value) {
      if (frequencies.peek(key) < 2) return;
      if (window && sizeCalculation(value) <= windowBytes) {
        window.set(key, value);
        onKeep?.('window');
      } else admit(key, value);
    },
  };
}
