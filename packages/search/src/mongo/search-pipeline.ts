import { minFuzzyLength, minPrefixLength } from '../query-words';

/**
 * The Mongo Search index on the documents collection: the scope as a token (exact filter), the text
 * split into Unicode words, lower-cased and with diacritics folded, as the embedded engine does.
 */
export const searchIndexDefinition = {
  analyzer: 'words',
  searchAnalyzer: 'words',
  analyzers: [{ name: 'words', tokenizer: { type: 'standard' }, tokenFilters: [{ type: 'lowercase' }, { type: 'icuFolding' }] }],
  mappings: { dynamic: false, fields: { scope: { type: 'token' }, text: { type: 'string' } } },
} as const;

/** MiniSearch's weights for prefix and typo matches, which the embedded engine's ordering follows. */
const prefixBoost = 0.375;
const fuzzyBoost = 0.45;

/**
 * The `$search` stage for a scope's query words. Exact: any of the words (Lucene's BM25 ranks
 * more and rarer words first). Widened: also words they begin (4+ letters) and words one edit away
 * (6+ letters, first letter kept), each weighted below an exact match.
 */
export function searchStage(indexName: string, scope: string, words: string[], widen: boolean) {
  const should: Record<string, unknown>[] = [{ text: { query: words, path: 'text' } }];
  if (widen) {
    for (const word of words) {
      if (word.length >= minPrefixLength)
        should.push({ wildcard: { query: `${word}*`, path: 'text', allowAnalyzedField: true, score: { boost: { value: prefixBoost } } } });
      if (word.length >= minFuzzyLength)
        should.push({
          text: { query: word, path: 'text', fuzzy: { maxEdits: 1, prefixLength: 1 }, score: { boost: { value: fuzzyBoost } } },
        });
    }
  }
  return {
    $search: {
      index: indexName,
      compound: { filter: [{ equals: { path: 'scope', value: scope } }], should, minimumShouldMatch: 1 },
    },
  };
}

/** Whether widening could find anything the exact words do not. */
export function canWiden(words: string[]): boolean {
  return words.some((word) => word.length >= minPrefixLength);
}

/** The best `limit` documents with their scores; equal scores in id order, as the embedded engine. */
export function searchPipeline(indexName: string, scope: string, words: string[], limit: number, widen: boolean) {
  return [
    searchStage(indexName, scope, words, widen),
    { $limit: limit },
    { $project: { _id: 0, id: '$docId', text: 1, stored: 1, score: { $meta: 'searchScore' } } },
    { $sort: { score: -1, id: 1 } },
  ];
}
