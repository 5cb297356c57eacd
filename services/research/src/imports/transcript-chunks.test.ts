import { describe, expect, it } from 'vitest';
import { chunkTranscript } from './transcript-chunks';

const limits = { minChars: 30, maxChars: 80, maxDurationMs: 20_000 };
const segment = (startMs: number, text: string) => ({ startMs, endMs: startMs + 2000, text });

describe('chunkTranscript', () => {
  it('closes a chunk at the first sentence end past the minimum, on a segment boundary', () => {
    const chunks = chunkTranscript(
      [
        segment(0, 'Grind finer.'),
        segment(2000, 'It extracts faster and tastes'),
        segment(4000, 'sweeter.'),
        segment(6000, 'Then dial the dose.'),
      ],
      limits,
    );
    expect(chunks).toEqual([
      { startMs: 0, endMs: 6000, text: 'Grind finer. It extracts faster and tastes sweeter.' },
      { startMs: 6000, endMs: 8000, text: 'Then dial the dose.' },
    ]);
  });

  it('bounds unpunctuated captions by length and duration, and skips blank segments', () => {
    const words = Array.from({ length: 12 }, (_, i) => segment(i * 2000, i === 3 ? '  ' : 'words without any punctuation'));
    const chunks = chunkTranscript(words, limits);
    expect(chunks.every((chunk) => chunk.text.length <= 80 + 30)).toBe(true);
    expect(chunks.map((chunk) => chunk.startMs)).toEqual([0, 8000, 14000, 20000]);
    expect(
      chunks
        .map((c) => c.text)
        .join(' ')
        .split('words').length - 1,
    ).toBe(11);
  });
});
