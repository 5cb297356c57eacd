/*
 * A deterministic corpus shaped like transcript chunks: a 4,000-word vocabulary drawn with a
 * Zipf-like skew (a few words in nearly every chunk, most words rare), 40 words a chunk.
 */
const syllables = ['ka', 'lo', 'mi', 'ren', 'sto', 'pa', 'dri', 'ven', 'ox', 'tal', 'bu', 'ser', 'nim', 'qua', 'fe', 'gor'];

export const vocabulary = Array.from({ length: 4000 }, (_, i) => {
  let word = '';
  for (let n = i + 1; n > 0; n = Math.floor(n / syllables.length)) word += syllables[n % syllables.length];
  return word;
});

function random(seed: number): () => number {
  let x = (seed + 1) * 2654435761;
  return () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x / 2 ** 32;
  };
}

/** Chunk `seed` of the corpus: always the same 40 words for the same seed. */
export function sentence(seed: number): string {
  const next = random(seed);
  return Array.from({ length: 40 }, () => vocabulary[Math.floor(vocabulary.length * next() ** 3)]).join(' ');
}
