/** What finding typo variants asks of an index's vocabulary (terms ordered by code point, as UTF-8 bytes are). */
export interface SortedVocabulary {
  /** The first term at or after `from`, or undefined past the last. */
  firstFrom(from: string): string | undefined;
  has(term: string): boolean;
}

/** Above every character a word can hold: `prefix + c + highest` bounds the terms that begin `prefix + c`. */
const highest = String.fromCodePoint(0x10ffff);
/** Below every character a word can hold: `prefix + lowest` is the first string after `prefix`. */
export const lowest = '\u0001';

/**
 * The characters that follow `prefix` in some term, found by seeking from one group of terms to
 * the next: a seek per distinct character, however many terms each group holds. `first` is the
 * first term at or after `prefix`.
 */
function* nextCharacters(vocabulary: SortedVocabulary, prefix: string, first: string): Generator<string> {
  let term = first === prefix ? vocabulary.firstFrom(prefix + lowest) : first;
  while (term?.startsWith(prefix)) {
    const character = String.fromCodePoint(term.codePointAt(prefix.length) ?? 0);
    yield character;
    term = vocabulary.firstFrom(prefix + character + highest);
  }
}

/**
 * The terms one edit (a substitution, insertion or deletion) away from `word` that share its first
 * character, the first `max` in code point order. An edit at position i keeps the i characters before
 * it, so each position probes only the characters that follow that prefix in the vocabulary: the cost
 * follows the word's length, not the number of terms sharing its first letter.
 */
export function typoVariants(vocabulary: SortedVocabulary, word: string, max: number): string[] {
  const characters = [...word];
  const found = new Set<string>();
  const probe = (candidate: string) => {
    if (candidate !== word && !found.has(candidate) && vocabulary.has(candidate)) found.add(candidate);
  };
  for (let i = 1; i <= characters.length; i++) {
    const prefix = characters.slice(0, i).join('');
    const first = vocabulary.firstFrom(prefix);
    // Every candidate from here on begins with this prefix: when no term does, none is a term (a
    // long word of no language stops after a few seeks).
    if (!first?.startsWith(prefix)) break;
    const rest = characters.slice(i).join('');
    const afterRest = characters.slice(i + 1).join('');
    if (i < characters.length) probe(prefix + afterRest);
    for (const character of nextCharacters(vocabulary, prefix, first)) {
      if (i < characters.length) probe(prefix + character + afterRest);
      probe(prefix + character + rest);
    }
  }
  return [...found].sort(byCodePoint).slice(0, max);
}

/** Code point order (UTF-8 byte order, SQLite's BINARY collation); JavaScript's `<` orders UTF-16 units. */
export function byCodePoint(a: string, b: string): number {
  for (let i = 0; i < a.length && i < b.length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** Surrogates (U+D800–DFFF, code points above U+FFFF) moved above U+E000–FFFF, as in code point order. */
function codePointRank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit < 0xe000 ? unit + 0x2000 : unit - 0x800;
}
