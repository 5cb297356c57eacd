import { describe, expect, it } from 'vitest';
import { chunkDescription, descriptionParagraphs, isBoilerplateLine } from './description-chunks';

/** Shaped like real descriptions (the recorded rCAS2eD-mcw has every one of these parts). */
const description = `A short guide to pulling espresso at home: grind, dose, tamp and timing, with the three mistakes that make shots sour.

In this video
- dialling in the grinder
- dose and yield
- tamping technique

Thanks for watching! Check out my full latte art course too
https://youtu.be/abc123

Resources:
https://example.com/brew-guide
http://coffee-research.org/

---------
Find us at
Instagram: https://www.instagram.com/espressolab/
Twitter: https://twitter.com/espressolab
Podcast: The Espresso Hour
Facebook Page: https://www.facebook.com/espressolab
---------
#espresso #coffee #barista #homebarista
---------
Please support me on patreon
https://www.patreon.com/espressolab
---------
Any questions please email hello@espressolab.example
---------
Disclaimer:

The information in this video is for education only and is not professional advice.

Results vary with equipment. The presenter makes no warranties of any kind.
`;

describe('description evidence', () => {
  it('keeps what the video is about and drops links, contacts, hashtags, promotion and the disclaimer', () => {
    expect(descriptionParagraphs(description)).toEqual([
      'A short guide to pulling espresso at home: grind, dose, tamp and timing, with the three mistakes that make shots sour.',
      'In this video\n- dialling in the grinder\n- dose and yield\n- tamping technique',
    ]);
  });

  it('cuts the evidence into citation-sized chunks at sentence ends, never quoting the whole description', () => {
    const chunks = chunkDescription(description, { minChars: 60, maxChars: 140 });
    expect(chunks).toEqual([
      'A short guide to pulling espresso at home: grind, dose, tamp and timing, with the three mistakes that make shots sour.',
      'In this video - dialling in the grinder - dose and yield - tamping technique',
    ]);
    const long = Array.from({ length: 30 }, (_, i) => `Sentence number ${i} explains one more step of the recipe.`).join(' ');
    const longChunks = chunkDescription(long, { minChars: 100, maxChars: 200 });
    expect(longChunks.length).toBeGreaterThan(5);
    expect(longChunks.every((chunk) => chunk.length <= 200 && chunk.endsWith('.'))).toBe(true);
    expect(longChunks.join(' ')).toBe(long);
    const unbroken = 'word '.repeat(300).trim();
    expect(chunkDescription(unbroken, { minChars: 100, maxChars: 200 }).every((chunk) => chunk.length <= 200)).toBe(true);
  });

  it('tells boilerplate lines from content that merely looks close', () => {
    for (const line of [
      'https://youtu.be/x',
      'Website: espressolab.example',
      'Twitter - @espressolab',
      '#coffee #espresso',
      'Use code BEAN10 for 10% off',
      'This video is sponsored by Grindr Co',
      'Music by Someone Somewhere',
    ]) {
      expect(isBoilerplateLine(line), line).toBe(true);
    }
    for (const line of ['X-rays of the bean show its density.', 'The podcast episode explains extraction.', 'Dose 18 g in, 36 g out.']) {
      expect(isBoilerplateLine(line), line).toBe(false);
    }
    expect(chunkDescription('')).toEqual([]);
    expect(chunkDescription('https://only.example/a\n#tag')).toEqual([]);
  });
});
