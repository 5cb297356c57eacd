/**
 * Cached entries under one byte budget: adding or resizing an entry evicts the least recently
 * used others until the total fits again. An entry larger than the whole budget is not kept.
 */
export class ByteBudgetLru {
  /** Map order is the LRU order: re-inserting marks an entry most recently used. */
  private readonly entries = new Map<object, { bytes: number; evict: () => void }>();
  private total = 0;

  constructor(readonly maxBytes: number) {}

  get bytes(): number {
    return this.total;
  }

  /** Records `key` at `bytes`, most recently used; false (and nothing kept) when it alone exceeds the budget. */
  keep(key: object, bytes: number, evict: () => void): boolean {
    this.forget(key);
    if (bytes > this.maxBytes) return false;
    this.entries.set(key, { bytes, evict });
    this.total += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.total -= entry.bytes;
      entry.evict();
    }
    return true;
  }

  touch(key: object): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.entries.set(key, entry);
  }

  forget(key: object): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.bytes;
  }
}
