import { describe, expect, it } from 'vitest';
import { canWiden, searchPipeline, searchStage } from './search-pipeline';

describe('Mongo Search pipeline', () => {
  it('matches any exact word inside the scope only, then limits, scores and orders ties by id', () => {
    expect(searchPipeline('search_text', 'p1', ['sourdough', 'crumb'], 10, false)).toEqual([
      {
        $search: {
          index: 'search_text',
          compound: {
            filter: [{ equals: { path: 'scope', value: 'p1' } }],
            should: [{ text: { query: ['sourdough', 'crumb'], path: 'text' } }],
            minimumShouldMatch: 1,
          },
        },
      },
      { $limit: 10 },
      { $project: { _id: 0, id: '$docId', text: 1, stored: 1, score: { $meta: 'searchScore' } } },
      { $sort: { score: -1, id: 1 } },
    ]);
  });

  it('widens with prefixes from 4 letters and one-typo matches from 6, each weighted below exact words', () => {
    const { should } = searchStage('search_text', 'p1', ['tea', 'crumb', 'monetize'], true).$search.compound;
    expect(should).toEqual([
      { text: { query: ['tea', 'crumb', 'monetize'], path: 'text' } },
      { wildcard: { query: 'crumb*', path: 'text', allowAnalyzedField: true, score: { boost: { value: 0.375 } } } },
      { wildcard: { query: 'monetize*', path: 'text', allowAnalyzedField: true, score: { boost: { value: 0.375 } } } },
      { text: { query: 'monetize', path: 'text', fuzzy: { maxEdits: 1, prefixLength: 1 }, score: { boost: { value: 0.45 } } } },
    ]);
    expect(canWiden(['tea', 'ox'])).toBe(false);
    expect(canWiden(['tea', 'crumb'])).toBe(true);
  });
});
