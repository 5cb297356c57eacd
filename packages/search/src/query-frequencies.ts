/** Counts stop here: 4 bits' worth, as in Caffeine's sketch; enough to tell a query asked often from one asked a few times. */
const maxCount = 15;

export interface QueryFrequencies {
  /** Counts one asking of `key` and answers how often it was asked recently, this asking included. */
  record(key: string): number;
  /** How often `key` was asked recently, counting nothing. */
  peek(key: string): number;
}

/**
 * How often each recent query (as its cache key) was asked, in a fixed table of fingerprints with a
 * small count each: the result cache's frequency sketch (ADR 0067). All counts halve once `slots × 10`
 * askings are recorded, so it tells what is asked often now. Keys sharing a slot or a fingerprint
 * only change which pages are kept, never an answer.
 */
export function queryFrequencies(slots = 4096): QueryFrequencies {
  if (!Number.isInteger(Math.log2(slots))) throw new Error(`slots must be a power of two, not ${slots}`);
  const fingerprints = new Uint32Array(slots);
  const counts = new Uint8Array(slots);
  const halveAfter = slots * 10;
  let recorded = 0;

  // FNV-1a over the UTF-16 code units: no allocation, a few nanoseconds a character.
  const hashOf = (key: string) => {
    let hash = 0x811c9dc5;
    for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
    return hash;
  };
  // Never 0, so an empty slot never matches.
  const fingerprintOf = (hash: number) => (hash | 1) >>> 0;

  return {
    record(key) {
      const hash = hashOf(key);
      const slot = (hash >>> 0) & (slots - 1);
      const fingerprint = fingerprintOf(hash);
      if (fingerprints[slot] !== fingerprint) {
        fingerprints[slot] = fingerprint;
        counts[slot] = 0;
      }
      const count = Math.min((counts[slot] ?? 0) + 1, maxCount);
      counts[slot] = count;
      if (++recorded >= halveAfter) {
        recorded = 0;
        for (const [i, c] of counts.entries()) counts[i] = c >> 1;
      }
      return count;
    },
    peek(key) {
      const hash = hashOf(key);
      const slot = (hash >>> 0) & (slots - 1);
      return fingerprints[slot] === fingerprintOf(hash) ? (counts[slot] ?? 0) : 0;
    },
  };
}
