export interface CheckedText {
  /** The answer with every marker pointing at no citation removed (`[2, 9]` becomes `[2]`). */
  text: string;
  /** The citation numbers the text still cites, ascending. */
  citedIndexes: number[];
  /** Numbers that pointed at no citation and were removed, in order of first appearance. */
  removedMarkers: number[];
  /** One line when markers were removed, for `meta.warnings`. */
  warnings: string[];
}

// `[3]` or `[1, 4]`, with the space before it, so a marker removed from "claim [9]." leaves "claim.".
const marker = /([ \t]*)\[(\d+(?:\s*,\s*\d+)*)\]/g;

/**
 * Checks the `[n]` markers of an answer against its citations: n must be a citation's 1-based
 * index (1..citations.length). Markers pointing elsewhere are removed, never passed through.
 */
export function checkCitedText(answer: string, citations: readonly unknown[]): CheckedText {
  const cited = new Set<number>();
  const removed = new Set<number>();
  const text = answer.replace(marker, (whole: string, space: string, list: string) => {
    const numbers = list.split(',').map((part) => Number(part.trim()));
    const valid = numbers.filter((n) => n >= 1 && n <= citations.length);
    for (const n of numbers) (valid.includes(n) ? cited : removed).add(n);
    if (valid.length === numbers.length) return whole;
    return valid.length > 0 ? `${space}[${valid.join(', ')}]` : '';
  });
  const removedMarkers = [...removed];
  return {
    text,
    citedIndexes: [...cited].sort((a, b) => a - b),
    removedMarkers,
    warnings:
      removedMarkers.length > 0
        ? [`Removed citation markers that point at no citation: ${removedMarkers.map((n) => `[${n}]`).join(', ')}.`]
        : [],
  };
}
