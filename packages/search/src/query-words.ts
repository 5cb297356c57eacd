import type { SearchHit } from './port';

/** More words than this adds nothing a researcher types, and each one costs a posting-list walk. */
export const maxQueryWords = 32;
/** A word this long also matches the words it begins ("monetiz" finds "monetization"). */
export const minPrefixLength = 4;
/** A word this long also matches words one edit away (one typo). */
export const minFuzzyLength = 6;
/**
 * Widened hits rank after every exact one; their score is scaled down by this (MiniSearch weighted
 * prefix matches 0.375 and fuzzy ones 0.45) and never above the last exact score.
 */
export const widenedScoreFactor = 0.4;

/**
 * The distinct words of a query, lower-cased: runs of letters and digits, as the engines'
 * tokenizers split text (Unicode-aware). Anything else — quotes, operators, punctuation — only
 * separates words, so no query syntax of an engine can be injected.
 */
export function queryWords(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, maxQueryWords);
}

/**
 * Score rounding for responses: four significant digits. BM25 scores of words present in most
 * of a scope's documents are tiny (an idf floor), and rounding to fixed decimals would turn them
 * all into 0 and hide the order.
 */
export function roundScore(score: number): number {
  return Number(score.toPrecision(4));
}

/**
 * Exact hits first, in their order; then widened hits not already present, scaled down and kept at
 * or below the last exact score so scores never increase down the list.
 */
export function mergeWidened(exact: SearchHit[], widened: SearchHit[], limit: number): SearchHit[] {
  const merged = exact.slice(0, limit);
  const seen = new Set(merged.map((hit) => hit.id));
  let ceiling = merged.at(-1)?.score ?? Number.POSITIVE_INFINITY;
  for (const hit of widened) {
    if (merged.length >= limit) break;
    if (seen.has(hit.id)) continue;
    const score = Math.min(roundScore(hit.score * widenedScoreFactor), ceiling);
    ceiling = score;
    merged.push({ ...hit, score });
    seen.add(hit.id);
  }
  return merged;
}
