/** Words that carry no topic: dropped from search queries and from relevance scoring. */
const stopWords = new Set(
  (
    'a about above after again all also am an and any are as at be because been before being below between both but by can could ' +
    'did do does doing done down during each explain few for from further get give had has have having he her here hers how i if in ' +
    'into is it its itself just know let me more most my no nor not now of off on once only or other our out over own please same ' +
    'say she should show so some such tell than that the their them then there these they this those through to too under until up ' +
    'us very was we were what when where which while who whom why will with would you your youtube video videos find search'
  ).split(' '),
);

/** Lower-cased words of a text, in order, without punctuation. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? [];
}

/** The words of a text that name its topic, deduplicated, in order of appearance. */
export function termsOf(text: string): string[] {
  return [...new Set(wordsOf(text).filter((word) => word.length > 1 && !stopWords.has(word)))];
}

/** A word matches a term when one is the other's stem-like prefix (insert / inserting / inserted). */
function matches(word: string, term: string): boolean {
  if (word === term) return true;
  const stem = term.length > 4 ? term.slice(0, Math.max(4, term.length - 3)) : term;
  return stem.length >= 4 && word.startsWith(stem);
}

/** Share of `terms` present in `text` (0..1). */
export function coverageOf(text: string, terms: readonly string[]): number {
  if (terms.length === 0) return 0;
  const words = wordsOf(text);
  const found = terms.filter((term) => words.some((word) => matches(word, term)));
  return found.length / terms.length;
}
