import { randomUUID } from 'node:crypto';

let lastMs = 0;
let sequence = 0;

/**
 * A ledger entry id that sorts by creation time: `led_<13-digit ms><6-digit sequence><random>`.
 * The ledger is paged newest first by (createdAt, id), so ids must order entries of one millisecond.
 * The sequence keeps entries written in the same millisecond (or after the clock steps back) in the
 * order this process wrote them; the random tail (randomUUID's buffered pool) keeps replicas apart.
 */
export function newLedgerId(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    sequence = 0;
  } else {
    sequence++;
  }
  return `led_${String(lastMs).padStart(13, '0')}${String(sequence).padStart(6, '0')}${randomUUID().slice(0, 8)}`;
}
