import { describe, expect, it } from 'vitest';
import { SqliteSearchCore } from './sqlite-search-core';
import { byCodePoint, type SortedVocabulary, typoVariants } from './typo-variants';

/** Levenshtein distance of exactly one, over code points: the oracle the seeks must agree with. */
function oneEditApart(a: string, b: string): boolean {
  const [x, y] = [[...a], [...b]];
  if (a === b || Math.abs(x.length - y.length) > 1) return false;
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  const skip = short.length === long.length ? 1 : 0;
  return short.slice(i + skip).join('') === long.slice(i + 1).join('');
}

const firstCharacter = (word: string) => String.fromCodePoint(word.codePointAt(0)!);
const bruteForce = (terms: string[], word: string) =>
  [...new Set(terms)].filter((term) => firstCharacter(term) === firstCharacter(word) && oneEditApart(term, word)).sort(byCodePoint);

function sortedVocabulary(terms: string[]): SortedVocabulary {
  const sorted = [...new Set(terms)].sort(byCodePoint);
  return {
    firstFrom(from) {
      let [low, high] = [0, sorted.length];
      while (low < high) {
        const middle = (low + high) >> 1;
        if (byCodePoint(sorted[middle]!, from) < 0) low = middle + 1;
        else high = middle;
      }
      return sorted[low];
    },
    has: (term) => sorted.includes(term),
  };
}

function random(seed: number) {
  let x = seed;
  return (n: number) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x % n;
  };
}

describe('typoVariants', () => {
  // Letters of one, two and four UTF-8 bytes (é, ж, 𝒜), so code point order and UTF-16 order differ.
  const alphabet = ['a', 'b', 'c', 'r', '1', '9', 'é', 'ж', '𝒜'];
  const next = random(7);
  const word = (length: number) => Array.from({ length }, () => alphabet[next(alphabet.length)]).join('');
  const terms = Array.from({ length: 3000 }, () => word(1 + next(7)));
  const vocabulary = sortedVocabulary(terms);

  it('finds exactly the terms one edit away that share the first character', () => {
    const mutate = (term: string) => {
      const characters = [...term];
      const at = next(characters.length + 1);
      const edit = next(3);
      if (edit === 0 && at < characters.length) characters.splice(at, 1);
      else if (edit === 1 && at < characters.length) characters[at] = alphabet[next(alphabet.length)]!;
      else characters.splice(at, 0, alphabet[next(alphabet.length)]!);
      return characters.join('');
    };
    const queries = [
      ...Array.from({ length: 200 }, () => mutate(terms[next(terms.length)]!)),
      ...Array.from({ length: 100 }, () => word(2 + next(6))),
    ];
    let withVariants = 0;
    for (const query of queries.filter((q) => q.length > 0)) {
      const expected = bruteForce(terms, query);
      if (expected.length > 0) withVariants++;
      expect(typoVariants(vocabulary, query, Number.POSITIVE_INFINITY), query).toEqual(expected);
    }
    expect(withVariants).toBeGreaterThan(150);
  });

  it('returns the first `max` variants in code point order, never the word itself', () => {
    const small = sortedVocabulary(['rabbit', 'rabbits', 'rabbi', 'rabbet', 'r𝒜bbit', 'rébbit', 'habbit']);
    expect(typoVariants(small, 'rabbit', 16)).toEqual(['rabbet', 'rabbi', 'rabbits', 'rébbit', 'r𝒜bbit']);
    expect(typoVariants(small, 'rabbit', 2)).toEqual(['rabbet', 'rabbi']);
  });

  it('stops at the first prefix no term begins with, however long the word', () => {
    let seeks = 0;
    const counted: SortedVocabulary = {
      firstFrom: (from) => {
        seeks++;
        return vocabulary.firstFrom(from);
      },
      has: vocabulary.has,
    };
    const long = `rab${'q'.repeat(500)}`;
    expect(typoVariants(counted, long, 16)).toEqual(bruteForce(terms, long).slice(0, 16));
    expect(seeks).toBeLessThan(40);
  });

  it('reads the same variants from a SQLite index as from the words it indexed', () => {
    const core = new SqliteSearchCore(null);
    const indexed = Array.from({ length: 2000 }, (_, i) => `${['revised', 'review', 'river', 'sourdough'][i % 4]}${i % 700}`);
    core.apply(
      'scope',
      indexed.map((text, i) => ({ id: `ev_${i}`, text })),
    );
    for (const query of ['revised123', 'revisedx', 'review69', 'rivr55', 'sourdough7001']) {
      const hits = core.search('scope', query, 100).map((hit) => indexed[Number(hit.id.slice(3))]);
      const variants = bruteForce(indexed, query).slice(0, 16);
      const expected = new Set([...indexed.filter((text) => text === query || text.startsWith(query)), ...variants]);
      expect(new Set(hits), query).toEqual(expected);
    }
    core.close();
  });
});
