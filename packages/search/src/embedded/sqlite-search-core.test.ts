import { describe, expect, it } from 'vitest';
import { makeTempDir } from '@vrs/testing/temp-dir';
import { SqliteSearchCore } from './sqlite-search-core';

describe('SqliteSearchCore on files (a writing connection and a reading one per scope)', () => {
  const core = () => new SqliteSearchCore(makeTempDir('vrs-search-core-'));

  it('answers every search and version read with all that was written before it', () => {
    const engine = core();
    for (let round = 1; round <= 30; round++) {
      expect(engine.apply('scope', [{ id: `ev_${round}`, text: `word${round} common` }], { from: round - 1, to: round })).toBe(true);
      expect(engine.version('scope')).toBe(round);
      // The exact match first; a page it cannot fill widens to words one edit away (word1 for word10).
      expect(engine.search('scope', `word${round}`, 10)[0]?.id).toBe(`ev_${round}`);
      // Prefix and typo matching read the vocabulary: it holds the newest words too.
      expect(engine.search('scope', `word${round}x`, 10).map((hit) => hit.id)).toContain(`ev_${round}`);
      expect(engine.search('scope', 'common', 100)).toHaveLength(round);
    }
    expect(engine.builtFor('scope')).toBe(1);
    engine.close();
  });

  it('widens to typo variants with the vocabulary as written last, by this core or another one', () => {
    const dir = makeTempDir('vrs-search-core-');
    const engine = new SqliteSearchCore(dir);
    const other = new SqliteSearchCore(dir);
    engine.apply('scope', [{ id: 'ev_1', text: 'alpha beta' }]);
    // The vocabulary's answers for "colourr" are remembered: none of its variants is a term yet.
    expect(engine.search('scope', 'colourr', 10)).toEqual([]);
    engine.apply('scope', [{ id: 'ev_2', text: 'colour' }]);
    expect(engine.search('scope', 'colourr', 10).map((hit) => hit.id)).toEqual(['ev_2']);
    other.apply('scope', [{ id: 'ev_3', text: 'colours' }]);
    expect(
      engine
        .search('scope', 'colourr', 10)
        .map((hit) => hit.id)
        .sort(),
    ).toEqual(['ev_2', 'ev_3']);
    engine.close();
    other.close();
  });

  it('shows each document as last written, by this core or another one, after a page showed it', () => {
    const dir = makeTempDir('vrs-search-core-');
    // Ranked from postings, with the documents of the pages cached (ADR 0122).
    const engine = new SqliteSearchCore(dir, { postingsMinDocuments: 1 });
    const other = new SqliteSearchCore(dir);
    const page = () => engine.search('scope', 'alpha', 10).map(({ id, text, stored }) => ({ id, text, stored }));
    engine.apply('scope', [
      { id: 'ev_1', text: 'alpha beta', stored: { startMs: 1 } },
      { id: 'ev_2', text: 'alpha gamma', stored: { startMs: 2 } },
    ]);
    expect(page()).toContainEqual({ id: 'ev_1', text: 'alpha beta', stored: { startMs: 1 } });
    // Its stored fields alone, by this core: the postings stay, the document is read again.
    engine.apply('scope', [{ id: 'ev_1', text: 'alpha beta', stored: { startMs: 10 } }]);
    expect(page()).toContainEqual({ id: 'ev_1', text: 'alpha beta', stored: { startMs: 10 } });
    other.apply('scope', [{ id: 'ev_2', text: 'alpha delta', stored: { startMs: 20 } }]);
    expect(page()).toContainEqual({ id: 'ev_2', text: 'alpha delta', stored: { startMs: 20 } });
    // Three searches, each ranking its word and then, the page not full, its widening.
    expect(engine.postingsCache().rankedFromPostings).toBe(6);
    engine.close();
    other.close();
  });

  it('still refuses a version move from a version the scope is not at', () => {
    const engine = core();
    expect(engine.apply('scope', [{ id: 'ev_1', text: 'alpha' }], { from: 0, to: 1 })).toBe(true);
    expect(engine.apply('scope', [{ id: 'ev_2', text: 'beta' }], { from: 0, to: 1 })).toBe(false);
    expect(engine.version('scope')).toBe(1);
    engine.close();
  });

  it('answers from a scope reopened after the least recently used one was closed', () => {
    const engine = new SqliteSearchCore(makeTempDir('vrs-search-core-'), { maxOpenScopes: 1 });
    engine.apply('a', [{ id: 'ev_a', text: 'alpha' }], { from: 0, to: 1 });
    engine.apply('b', [{ id: 'ev_b', text: 'beta' }], { from: 0, to: 1 });
    expect(engine.search('a', 'alpha', 10).map((hit) => hit.id)).toEqual(['ev_a']);
    expect(engine.search('b', 'beta', 10).map((hit) => hit.id)).toEqual(['ev_b']);
    engine.close();
  });
});
