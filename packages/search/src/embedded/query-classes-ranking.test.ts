import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchHit } from '../port';
import { SqliteSearchCore } from './sqlite-search-core';

/**
 * Issue 40 goal 4: the pages of 500 distinct queries of each class researchers send are FTS5's,
 * through the cached postings (ADRs 0052, 0112), on a corpus shaped like transcript chunks (a skewed
 * vocabulary of syllable words, 30 words a chunk, as bench/support/transcript-corpus.ts).
 */
const syllables = ['ka', 'lo', 'mi', 'ren', 'sto', 'pa', 'dri', 'ven', 'ox', 'tal', 'bu', 'ser'];
const vocabulary = Array.from({ length: 1500 }, (_, i) => {
  let word = '';
  for (let n = i + 1; n > 0; n = Math.floor(n / syllables.length)) word += syllables[n % syllables.length];
  return word;
});
const known = new Set(vocabulary);

function random(seed: number): () => number {
  let x = (seed + 1) * 2654435761;
  return () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x / 2 ** 32;
  };
}

const chunks = Array.from({ length: 2_000 }, (_, i) => {
  const next = random(i);
  return { id: `ev_${i}`, text: Array.from({ length: 30 }, () => vocabulary[Math.floor(vocabulary.length * next() ** 3)]).join(' ') };
});

const prefixes = [...new Set(vocabulary.slice(144).map((word) => word.slice(0, 5)))].filter((prefix) => !known.has(prefix));
const classes: Record<string, (n: number) => string> = {
  'rare pair': (n) => `${vocabulary[400 + (n % 500)]} ${vocabulary[900 + ((n * 7) % 600)]}`,
  'single word': (n) => vocabulary[30 + n]!,
  'common pair': (n) => `${vocabulary[n % 10]} ${vocabulary[30 + ((n * 13) % 500)]}`,
  prefix: (n) => prefixes[n % prefixes.length]!,
  typo: (n) => `${vocabulary[144 + n]}z`,
};

/** The same page FTS5 could give: equal scores, equal hits above the last score (FTS5 breaks a tie at the cut either way). */
function expectSamePage(actual: SearchHit[], expected: SearchHit[], query: string) {
  expect(
    actual.map((hit) => hit.score),
    query,
  ).toEqual(expected.map((hit) => hit.score));
  const untied = expected.filter((hit) => hit.score !== expected.at(-1)?.score).length;
  expect(actual.slice(0, untied), query).toEqual(expected.slice(0, untied));
}

describe('the top 20 of 500 distinct queries of each class (issue 40)', () => {
  let dir: string;
  let cached: SqliteSearchCore;
  let fts5: SqliteSearchCore;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'vrs-query-classes-'));
    cached = new SqliteSearchCore(dir);
    fts5 = new SqliteSearchCore(dir, { postingsMinDocuments: Number.POSITIVE_INFINITY });
    cached.apply('scope', chunks);
  });
  afterAll(() => {
    cached.close();
    fts5.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(Object.keys(classes))('%s: FTS5’s page, ranked from cached postings', (name) => {
    const before = cached.postingsCache().rankedFromPostings;
    const queries = new Set(Array.from({ length: 500 }, (_, n) => classes[name]!(n)));
    expect(queries.size).toBe(name === 'prefix' ? Math.min(500, prefixes.length) : 500);
    for (const query of queries) expectSamePage(cached.search('scope', query, 20), fts5.search('scope', query, 20), query);
    // All but the first few (before the lengths are read) were ranked from postings.
    expect(cached.postingsCache().rankedFromPostings - before).toBeGreaterThan(queries.size * 0.9);
  });
});
