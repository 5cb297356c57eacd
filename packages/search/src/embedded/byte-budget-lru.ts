import { LRUCache } from 'lru-cache';

interface Entry {
  bytes: number;
  evict: () => void;
}

/**
 * Cached entries under one byte budget (lru-cache, sized in bytes): keeping or resizing an entry
 * evicts the least recently used others until the total fits again, telling each owner through its
 * `evict`. An entry larger than the whole budget is not kept.
 */
export class ByteBudgetLru {
  private readonly entries: LRUCache<object, Entry>;

  constructor(readonly maxBytes: number) {
    this.entries = new LRUCache<object, Entry>({
      maxSize: maxBytes,
      // lru-cache refuses a size below 1.
      sizeCalculation: (entry) => Math.max(1, entry.bytes),
      // After removal, so an owner's evict may touch the budget again; only evictions are told, not forgets or resizes.
      disposeAfter: (entry, _key, reason) => {
        if (reason === 'evict') entry.evict();
      },
    });
  }

  get bytes(): number {
    return this.entries.calculatedSize;
  }

  /** Records `key` at `bytes`, most recently used; false (and nothing kept) when it alone exceeds the budget. */
  keep(key: object, bytes: number, evict: () => void): boolean {
    if (bytes > this.maxBytes) {
      this.entries.delete(key);
      return false;
    }
    this.entries.set(key, { bytes, evict });
    return true;
  }

  touch(key: object): void {
    this.entries.get(key);
  }

  forget(key: object): void {
    this.entries.delete(key);
  }
}
