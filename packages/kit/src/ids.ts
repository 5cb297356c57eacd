import { randomUUID } from 'node:crypto';

let lastMs = 0;
let sequence = 0;

/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then a 12-bit sequence, then 62 random bits.
 * Ids sort by creation time — lists paged by id, and indexes on `_id`, follow insertion order — and
 * within one process they increase strictly, even in the same millisecond or when the clock steps
 * back (method 1 of the RFC: the sequence, seeded randomly each millisecond, rolls the time forward
 * when it overflows). The random bits come from randomUUID, which draws from a buffered pool.
 */
export function newUuid(now = Date.now()): string {
  const random = randomUUID();
  if (now > lastMs) {
    lastMs = now;
    // Seeded in the lower half, so a busy millisecond has room to count up.
    sequence = Number.parseInt(random.slice(15, 18), 16) & 0x7ff;
  } else if (++sequence > 0xfff) {
    lastMs++;
    sequence = 0;
  }
  const ms = lastMs.toString(16).padStart(12, '0');
  return `${ms.slice(0, 8)}-${ms.slice(8)}-7${sequence.toString(16).padStart(3, '0')}-${random.slice(19)}`;
}

/** An opaque, time-ordered id with a type prefix: `job_<32 hex of a UUIDv7>`. */
export function newId(prefix: string): string {
  return `${prefix}_${newUuid().replaceAll('-', '')}`;
}
