/**
 * Remembers the queries (as keys) recently asked, in a fixed table of fingerprints, and answers
 * whether a key was among them. The result cache keeps a page only for a query asked before
 * (ADR 0063): a query asked once, as most of a stream of distinct queries are, would only push out
 * pages that are asked again, and its page, answer and JSON would all outlive the request to be
 * collected later by a full garbage collection. Keys share slots: a later key in the same slot
 * makes the table forget the earlier one (the query is then kept one asking later), and two keys
 * may share a fingerprint (the second is kept at once); neither changes an answer.
 */
export function askedBefore(slots = 4096): (key: string) => boolean {
  if (!Number.isInteger(Math.log2(slots))) throw new Error(`slots must be a power of two, not ${slots}`);
  const fingerprints = new Uint32Array(slots);
  return (key) => {
    // FNV-1a over the UTF-16 code units: no allocation, a few nanoseconds a character.
    let hash = 0x811c9dc5;
    for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
    const slot = (hash >>> 0) & (slots - 1);
    // Never 0, so an empty slot never matches.
    const fingerprint = (hash | 1) >>> 0;
    if (fingerprints[slot] === fingerprint) return true;
    fingerprints[slot] = fingerprint;
    return false;
  };
}
