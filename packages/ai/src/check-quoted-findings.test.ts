import { describe, expect, it } from 'vitest';
import { checkQuotedFindings, entitiesOf, normalizeForQuote } from './check-quoted-findings';

const windows = [
  { index: 3, text: 'So the LMA goes in with the cuff deflated, and you push it along the hard palate.' },
  { index: 7, text: "Dr. Brain designed it in 1981; size 4 fits most adult women. Brain's design is still used." },
];

describe('checkQuotedFindings', () => {
  it('passes a finding whose quote occurs in its window, whatever the case, spacing and punctuation', () => {
    const finding = { claim: 'The cuff goes in deflated [1].', quote: 'the LMA goes in with the cuff   DEFLATED and you', windowIndex: 3 };
    const result = checkQuotedFindings([finding], windows);

    expect(result.issues).toEqual([]);
    expect(result.grounded).toEqual([finding]);
    expect(result.groundedIndexes).toEqual([0]);
  });

  it('rejects a quote that is not in the cited window, even when another window has it', () => {
    const result = checkQuotedFindings([{ claim: 'Sizes vary.', quote: 'size 4 fits most adult women', windowIndex: 3 }], windows);

    expect(result.grounded).toEqual([]);
    expect(result.issues).toEqual([
      { code: 'QUOTE_NOT_IN_WINDOW', message: expect.stringContaining('window 3'), findingIndex: 0, fieldIndex: 1, windowIndex: 3 },
    ]);
  });

  it('rejects a quote that only matches part of a word, and an empty quote', () => {
    const result = checkQuotedFindings(
      [
        { claim: 'x', quote: 'ate, and you pu', windowIndex: 3 },
        { claim: 'y', quote: ' … ', windowIndex: 3 },
      ],
      windows,
    );

    expect(result.issues.map((issue) => [issue.code, issue.findingIndex])).toEqual([
      ['QUOTE_NOT_IN_WINDOW', 0],
      ['QUOTE_NOT_IN_WINDOW', 1],
    ]);
  });

  it('rejects a finding citing a window it was not given, naming the windows it may cite', () => {
    const result = checkQuotedFindings([{ claim: 'x', quote: 'the cuff deflated', windowIndex: 9 }], windows);

    expect(result.issues).toEqual([
      { code: 'WINDOW_OUT_OF_RANGE', message: expect.stringContaining('3, 7'), findingIndex: 0, fieldIndex: 2, windowIndex: 9 },
    ]);
  });

  it('rejects a claim naming a person, year or number its window does not mention, and accepts the ones it does', () => {
    const result = checkQuotedFindings(
      [
        { claim: 'It was Archie Brain who designed it in 1981 [2].', quote: 'Brain designed it in 1981', windowIndex: 7 },
        { claim: 'The device, per Smith, dates from 1979 and size 5 fits women.', quote: 'size 4 fits most adult women', windowIndex: 7 },
        { claim: "Then Brain's LMA is pushed along the palate.", quote: 'push it along the hard palate', windowIndex: 3 },
      ],
      windows,
    );

    expect(result.groundedIndexes).toEqual([]);
    expect(result.issues).toEqual([
      { code: 'ENTITY_NOT_SUPPORTED', message: expect.stringContaining('"Archie"'), findingIndex: 0, fieldIndex: 0, windowIndex: 7 },
      {
        code: 'ENTITY_NOT_SUPPORTED',
        message: expect.stringMatching(/"Smith", "1979", "5"/),
        findingIndex: 1,
        fieldIndex: 0,
        windowIndex: 7,
      },
      { code: 'ENTITY_NOT_SUPPORTED', message: expect.stringContaining('"Brain"'), findingIndex: 2, fieldIndex: 0, windowIndex: 3 },
    ]);
  });

  it('lists every issue of a finding and keeps the grounded findings beside the rejected ones, in order', () => {
    const result = checkQuotedFindings(
      [
        { claim: 'It is what Smith says.', quote: 'not there', windowIndex: 3 },
        { claim: 'Brain designed it in 1981.', quote: 'Brain designed it in 1981', windowIndex: 7 },
      ],
      windows,
    );

    expect(result.issues.map((issue) => issue.code)).toEqual(['QUOTE_NOT_IN_WINDOW', 'ENTITY_NOT_SUPPORTED']);
    expect(result.groundedIndexes).toEqual([1]);
  });
});

describe('entitiesOf', () => {
  it('takes numbers and capitalized words that do not merely start a sentence, ignoring citation markers', () => {
    expect(entitiesOf('The LMA was made by Archie Brain in 1981 [3]. It fits. I think Size 4 [1, 2] works.')).toEqual([
      'LMA',
      'Archie',
      'Brain',
      '1981',
      'Size',
      '4',
    ]);
  });
});

describe('normalizeForQuote', () => {
  it('keeps only lower-cased words separated by single spaces', () => {
    expect(normalizeForQuote('  “Push” it—along\nthe  PALATE… ')).toBe('push it along the palate');
  });
});
