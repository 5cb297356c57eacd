import type autocannon from 'autocannon';
import { required } from '@vrs/kit';
import { queryClasses, type QueryClass } from './query-classes';
import { vocabulary } from './transcript-corpus';

/* The request streams of the search benches' phases (bench/search, bench/tracing). */

/** A new query every request: query `from`, `from + 1`, … of `make`. */
export function queryRequests(searchPath: string, make: (n: number) => string, from = 0): autocannon.Request[] {
  const base = searchPath.slice(0, searchPath.indexOf('?q='));
  let n = from;
  return [{ setupRequest: (request) => ({ ...request, path: `${base}?q=${encodeURIComponent(make(n++))}` }) }];
}

/** A new query of the class every request, none asked twice in a run (`queryClasses`). */
export const classRequests = (searchPath: string, queryClass: QueryClass, from = 0) =>
  queryRequests(searchPath, queryClasses[queryClass], from);

/** A dashboard refreshing 1,500 saved searches in turn: more than research's result cache holds (ADR 0067). */
export const savedSearchCycleRequests = (searchPath: string) =>
  queryRequests(searchPath, (n) => `${vocabulary[100 + (n % 500)]} ${vocabulary[100 + ((n * 7919) % 1500)]}`, 1);

/** The corpus's most frequent words after the first (in nearly every chunk, an idf floor); each is in 12–49 % of the chunks. */
export const commonWords = vocabulary.slice(1, 17);

/** Every `size`-word set of `words`, each in the words' order, the sets in lexicographic order of their positions. */
function wordSets(words: string[], size: number): string[][] {
  if (size === 0) return [[]];
  return words.flatMap((word, i) => wordSets(words.slice(i + 1), size - 1).map((rest) => [word, ...rest]));
}

/**
 * Every 4-word set of `commonWords` (1,820 sets): each query's words together are in most chunks,
 * so the engine ranks most of the project (goal 1's common-word search).
 */
export const commonWordSets = wordSets(commonWords, 4);

/** The 24 orders of four words. */
const fourWordOrders = [0, 1, 2, 3]
  .flatMap((a) => [0, 1, 2, 3].flatMap((b) => [0, 1, 2, 3].flatMap((c) => [0, 1, 2, 3].map((d) => [a, b, c, d]))))
  .filter((order) => new Set(order).size === 4);

/**
 * Every set in turn, then every set again in its next word order: the same ranking work, and 43,680
 * queries before one is asked twice, so the phase never times research's result cache.
 */
export function commonWordQueryRequests(searchPath: string, from = 0): autocannon.Request[] {
  return queryRequests(
    searchPath,
    (n) => {
      const set = required(commonWordSets[n % commonWordSets.length], 'a common-word set');
      const order = required(fourWordOrders[Math.floor(n / commonWordSets.length) % fourWordOrders.length], 'a word order');
      return order.map((i) => set[i]).join(' ');
    },
    from,
  );
}
