import { required } from '@vrs/kit';
import { vocabulary } from './transcript-corpus';

/**
 * Distinct queries of each class researchers send (issue 40), over `transcript-corpus`: query `n` of a
 * class is never query `m ≠ n` of it within the counts below, so a timed run reaches the engine and
 * never research's result cache. Shares of chunks are of the corpus at any size.
 * - rare pair: two words each in 0.3–1 % of the chunks (1,500 × 1,500 pairs);
 * - single word: one word in 1–4 % (900 words);
 * - common pair: a word in 12–49 % and one in 1–4 % (16 × 1,500 pairs);
 * - prefix: the first five letters of a word, not a word themselves: the page widens to the words
 *   they begin (~400 prefixes);
 * - typo: a word of 0.3–4 % with a "z" added, which no word holds: the page widens to its prefix and
 *   to the words one edit away (3,900 words).
 */
const words = new Set(vocabulary);
const prefixes = [...new Set(vocabulary.slice(256).map((word) => word.slice(0, 5)))].filter((prefix) => !words.has(prefix));

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/**
 * Pair `n` of two word lists, none repeated before n reaches their product: the first word cycles
 * through its list, the second moves by a step `k` per query and one more per lap, with `1 + k × first`
 * coprime to the second list's length, so the same first word never meets the same second one again.
 */
function pairs(first: readonly string[], second: readonly string[]): (n: number) => string {
  let k = 7919;
  while (gcd(1 + k * first.length, second.length) !== 1) k++;
  return (n) => `${first[n % first.length]} ${second[(Math.floor(n / first.length) + n * k) % second.length]}`;
}

const rarePairs = pairs(vocabulary.slice(1000, 2500), vocabulary.slice(2500, 4000));
const commonPairs = pairs(vocabulary.slice(1, 17), vocabulary.slice(100, 1600));

export const queryClasses = {
  'rare pair': rarePairs,
  'single word': (n: number) => required(vocabulary[100 + (n % 900)], 'a word of the vocabulary'),
  'common pair': commonPairs,
  prefix: (n: number) => required(prefixes[n % prefixes.length], 'a prefix'),
  typo: (n: number) => `${vocabulary[100 + (n % 3900)]}z`,
} satisfies Record<string, (n: number) => string>;

export type QueryClass = keyof typeof queryClasses;
