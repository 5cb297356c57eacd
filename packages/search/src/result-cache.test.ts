import { describe, expect, it } from 'vitest';
import { createResultCache } from './result-cache';

interface Page {
  query: string;
}

/** Room for 80 pages of 25 bytes: 4 in the window, 76 in the main part. */
const eightyPages = () => createResultCache<Page>({ maxBytes: 2_000, sizeOf: () => 25 });
const mainPages = 76;

/** Asks the cache as evidence search does (a miss offers the page it computed); true for an answer from the cache. */
function ask(cache: ReturnType<typeof eightyPages>, query: string): boolean {
  if (cache.get(query)) return true;
  cache.offer(query, { query });
  return false;
}

/** Four new queries asked twice each: what the window held has left it. */
function pushThroughWindow(cache: ReturnType<typeof eightyPages>, tag: string): void {
  for (let i = 0; i < 4; i++) for (let round = 0; round < 2; round++) ask(cache, `${tag} ${i}`);
}

describe('research result cache (W-TinyLFU)', () => {
  it('keeps a page from the second asking of its query on', () => {
    const cache = eightyPages();
    expect(ask(cache, 'alpha')).toBe(false);
    expect(ask(cache, 'alpha')).toBe(false);
    expect(ask(cache, 'alpha')).toBe(true);
    expect(cache.get('alpha')).toEqual({ query: 'alpha' });
  });

  it('keeps no page for queries asked once, however many', () => {
    const cache = eightyPages();
    for (let i = 0; i < 100; i++) ask(cache, `once ${i}`);
    for (let i = 0; i < 100; i++) expect(cache.get(`once ${i}`)).toBeUndefined();
  });

  it('answers a researcher’s few queries asked again in turn from the pages just kept', () => {
    const cache = eightyPages();
    // The main part full of pages asked three times each.
    for (let round = 0; round < 3; round++) for (let i = 0; i < mainPages; i++) ask(cache, `known ${i}`);
    let answered = 0;
    for (let session = 0; session < 10; session++) {
      const queries = [`session ${session} a`, `session ${session} b`];
      for (let round = 0; round < 3; round++) for (const query of queries) answered += ask(cache, query) ? 1 : 0;
    }
    // Each session's third round comes from the cache: kept at the second asking, in the window or the main part.
    expect(answered).toBe(20);
  });

  it('keeps answering part of a cycle of more queries than it holds, where a least-recently-used cache answers none', () => {
    const cache = eightyPages();
    const queries = Array.from({ length: 240 }, (_, i) => `saved search ${i}`);
    for (let round = 0; round < 2; round++) for (const query of queries) ask(cache, query);
    let answered = 0;
    for (let round = 0; round < 4; round++) for (const query of queries) answered += ask(cache, query) ? 1 : 0;
    // The main part keeps its pages through every round instead of trading them for the next ones.
    expect(answered).toBeGreaterThanOrEqual(4 * (mainPages - 4));
  });

  it('gives the room of the least recently used page only to a page whose query was asked more often', () => {
    const cache = eightyPages();
    for (let round = 0; round < 4; round++) for (let i = 0; i < mainPages; i++) ask(cache, `known ${i}`);
    // Asked twice: kept in the window, then refused by the main part, whose pages were asked four times.
    for (let round = 0; round < 2; round++) ask(cache, 'newcomer');
    pushThroughWindow(cache, 'after the newcomer');
    expect(cache.get('newcomer')).toBeUndefined();
    for (let i = 0; i < mainPages; i++) expect(cache.get(`known ${i}`)).toEqual({ query: `known ${i}` });
    // Asked more often than the pages kept (five times now), a query's page takes the room of the least recently used one.
    for (let round = 0; round < 7; round++) ask(cache, 'popular');
    pushThroughWindow(cache, 'after popular');
    expect(cache.get('popular')).toEqual({ query: 'popular' });
    expect(cache.get('known 0')).toBeUndefined();
  });

  it('keeps a page too large for the window in the main part directly', () => {
    const cache = createResultCache<Page>({ maxBytes: 400, sizeOf: () => 300 });
    ask(cache, 'alpha');
    ask(cache, 'alpha');
    expect(cache.get('alpha')).toEqual({ query: 'alpha' });
  });
});
