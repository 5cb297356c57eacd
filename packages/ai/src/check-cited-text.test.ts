import { describe, expect, it } from 'vitest';
import { checkCitedText } from './check-cited-text';

const three = ['a', 'b', 'c'];

describe('checkCitedText', () => {
  it('keeps markers that point at a citation', () => {
    const result = checkCitedText('Finer grinds run faster [1]. Dose 18 g [2][3].', three);

    expect(result).toEqual({
      text: 'Finer grinds run faster [1]. Dose 18 g [2][3].',
      citedIndexes: [1, 2, 3],
      removedMarkers: [],
      warnings: [],
    });
  });

  it('removes markers past the last citation, and [0], with the space before them', () => {
    const result = checkCitedText('Finer grinds run faster [1] [4]. Sour [0].', three);

    expect(result.text).toBe('Finer grinds run faster [1]. Sour.');
    expect(result.removedMarkers).toEqual([4, 0]);
    expect(result.citedIndexes).toEqual([1]);
    expect(result.warnings).toEqual(['Removed citation markers that point at no citation: [4], [0].']);
  });

  it('keeps the valid numbers of a grouped marker', () => {
    const result = checkCitedText('Both agree [1, 7,3].', three);

    expect(result.text).toBe('Both agree [1, 3].');
    expect(result.removedMarkers).toEqual([7]);
    expect(result.citedIndexes).toEqual([1, 3]);
  });

  it('leaves bracketed text that is not a citation marker alone', () => {
    expect(checkCitedText('See [note] and [a1].', three).text).toBe('See [note] and [a1].');
  });

  it('removes every marker when there are no citations', () => {
    const result = checkCitedText('Claim [1].', []);

    expect(result.text).toBe('Claim.');
    expect(result.removedMarkers).toEqual([1]);
  });
});
