/** A passage a model was given to quote from, named by `index` in its prompt. */
export interface QuotableWindow {
  index: number;
  text: string;
}

/** A model's finding: a claim, the verbatim quote it rests on, and the window quoted. */
export interface QuotedFinding {
  claim: string;
  quote: string;
  windowIndex: number;
}

export type GroundingIssueCode = 'QUOTE_NOT_IN_WINDOW' | 'WINDOW_OUT_OF_RANGE' | 'ENTITY_NOT_SUPPORTED';

/** Which field of a finding an issue is about (the finding's fields in schema order). */
export const findingFieldIndex = { claim: 0, quote: 1, windowIndex: 2 } as const;

export interface GroundingIssue {
  code: GroundingIssueCode;
  /** Says what is wrong in words a model can act on (it is sent back as repair feedback). */
  message: string;
  findingIndex: number;
  fieldIndex: number;
  /** The window the finding cited (out of range for WINDOW_OUT_OF_RANGE). */
  windowIndex: number;
}

export interface FindingsCheck<F extends QuotedFinding> {
  /** The findings with no issue, in input order. */
  grounded: F[];
  /** Positions in the input of the grounded findings. */
  groundedIndexes: number[];
  issues: GroundingIssue[];
}

/**
 * Lower-cased words, every other character a separator: the comparison ignores case, spacing and
 * punctuation (captions rarely have any, a model adds its own) but not a single word.
 */
export function normalizeForQuote(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

// Citation markers (`[3]`, `[1, 2]`) are references, not entities the claim names.
const citationMarker = /\[\d+(?:\s*,\s*\d+)*\]/g;
const wordPattern = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

/**
 * What a claim names that its window must back: numbers, and capitalized words that do not merely
 * start a sentence (names, places, brands, acronyms). "I" names nothing.
 */
export function entitiesOf(claim: string): string[] {
  const text = claim.replace(citationMarker, ' ');
  const entities = new Set<string>();
  for (const match of text.matchAll(wordPattern)) {
    // A possessive names the same entity: "Smith's" is backed by "Smith".
    const word = match[0].replace(/['’]s$/, '').replace(/['’-]+$/, '');
    const before = text.slice(0, match.index).trimEnd();
    const startsSentence = before === '' || /[.!?:;"“(]$/.test(before);
    if (/\d/.test(word) || (/^\p{Lu}/u.test(word) && word !== 'I' && (!startsSentence || /^\p{Lu}{2,}$/u.test(word)))) entities.add(word);
  }
  return [...entities];
}

function supports(windowWords: ReadonlySet<string>, entity: string): boolean {
  return normalizeForQuote(entity)
    .split(' ')
    .every((part) => windowWords.has(part));
}

/**
 * Holds a model's findings to the windows it was given: the cited window must exist, the quote must
 * occur in it (ignoring case, spacing and punctuation), and whatever the claim names (numbers,
 * capitalized names) must occur in it too. A finding with any issue is not grounded; nothing
 * unverified passes through.
 */
export function checkQuotedFindings<F extends QuotedFinding>(findings: readonly F[], windows: readonly QuotableWindow[]): FindingsCheck<F> {
  const byIndex = new Map(windows.map((window) => [window.index, window]));
  const result: FindingsCheck<F> = { grounded: [], groundedIndexes: [], issues: [] };
  findings.forEach((finding, findingIndex) => {
    const { windowIndex } = finding;
    const window = byIndex.get(windowIndex);
    const found: GroundingIssue[] = [];
    const issue = (code: GroundingIssueCode, field: keyof typeof findingFieldIndex, message: string) =>
      found.push({ code, message, findingIndex, fieldIndex: findingFieldIndex[field], windowIndex });
    if (!window) {
      issue(
        'WINDOW_OUT_OF_RANGE',
        'windowIndex',
        `Finding ${findingIndex} cites window ${windowIndex}, which was not given; cite one of ${[...byIndex.keys()].join(', ')}.`,
      );
    } else {
      const windowText = normalizeForQuote(window.text);
      const quote = normalizeForQuote(finding.quote);
      if (!quote || !` ${windowText} `.includes(` ${quote} `)) {
        issue(
          'QUOTE_NOT_IN_WINDOW',
          'quote',
          `Finding ${findingIndex}: the quote does not occur word for word in window ${windowIndex}; copy it from that window's text.`,
        );
      }
      const windowWords = new Set(windowText.split(' '));
      const unsupported = entitiesOf(finding.claim).filter((entity) => !supports(windowWords, entity));
      if (unsupported.length > 0) {
        issue(
          'ENTITY_NOT_SUPPORTED',
          'claim',
          `Finding ${findingIndex}: the claim names ${unsupported.map((entity) => `"${entity}"`).join(', ')}, which window ${windowIndex} does not mention.`,
        );
      }
    }
    if (found.length === 0) {
      result.grounded.push(finding);
      result.groundedIndexes.push(findingIndex);
    } else {
      result.issues.push(...found);
    }
  });
  return result;
}
