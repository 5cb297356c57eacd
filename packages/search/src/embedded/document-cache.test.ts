import { describe, expect, it } from 'vitest';
import { ByteBudgetLru } from './byte-budget-lru';
import { DocumentCache, type DocumentRow } from './document-cache';

const row = (rowid: number, text = `text ${rowid}`): DocumentRow => ({ rowid, id: `ev_${rowid}`, text, stored: `{"startMs":${rowid}}` });

/** A reader over rows by rowid that records what it was asked. */
function reader(rows: Map<number, DocumentRow>) {
  const asked: number[][] = [];
  return {
    asked,
    read: (missing: number[]) => {
      asked.push(missing);
      return missing.flatMap((rowid) => rows.get(rowid) ?? []);
    },
  };
}

describe('DocumentCache', () => {
  it('reads only the documents it does not hold, and hands out the same frozen ones after', () => {
    const rows = new Map([1, 2, 3].map((rowid) => [rowid, row(rowid)]));
    const { asked, read } = reader(rows);
    const cache = new DocumentCache(new ByteBudgetLru(1 << 20));
    const first = cache.get([1, 2], read);
    expect(first.get(1)).toEqual({ id: 'ev_1', text: 'text 1', stored: { startMs: 1 } });
    expect(Object.isFrozen(first.get(1)) && Object.isFrozen(first.get(1)?.stored)).toBe(true);
    const second = cache.get([2, 3, 4], read);
    expect(asked).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(second.get(2)).toBe(first.get(2));
    // A rowid with no document is not a document.
    expect([...second.keys()]).toEqual([2, 3]);
  });

  it('reads a forgotten document again, and every document after a clear', () => {
    const rows = new Map([1, 2].map((rowid) => [rowid, row(rowid)]));
    const { asked, read } = reader(rows);
    const cache = new DocumentCache(new ByteBudgetLru(1 << 20));
    cache.get([1, 2], read);
    rows.set(1, row(1, 'rewritten'));
    cache.forget(1);
    expect(cache.get([1, 2], read).get(1)?.text).toBe('rewritten');
    cache.clear();
    cache.get([1, 2], read);
    expect(asked).toEqual([[1, 2], [1], [1, 2]]);
  });

  it('keeps within its byte budget, the least recently shown documents going first, and still answers beyond it', () => {
    const budget = new ByteBudgetLru(3 * (2 * 'text 1'.length + 300));
    const rows = new Map([1, 2, 3, 4].map((rowid) => [rowid, row(rowid)]));
    const { asked, read } = reader(rows);
    const cache = new DocumentCache(budget);
    cache.get([1, 2, 3], read);
    cache.get([1], read);
    expect(cache.get([4], read).get(4)?.id).toBe('ev_4');
    expect(budget.bytes).toBeLessThanOrEqual(budget.maxBytes);
    // 2 was the least recently shown: it went for 4; 1 and 3 stayed.
    cache.get([1, 2, 3], read);
    expect(asked.at(-1)).toEqual([2]);
    // One larger than the whole budget is answered and not kept.
    rows.set(5, row(5, 'x'.repeat(budget.maxBytes)));
    expect(cache.get([5], read).get(5)?.text).toHaveLength(budget.maxBytes);
    cache.get([5], read);
    expect(asked.at(-1)).toEqual([5]);
  });
});
