import { setTimeout as sleep } from 'node:timers/promises';

/** `work`, or a rejection with `message` when it has not settled within `ms`; the timer is cleared either way. */
export async function withDeadline<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  const timer = new AbortController();
  const deadline = sleep(ms, undefined, { signal: timer.signal }).then(() => Promise.reject(new Error(message)));
  try {
    return await Promise.race([work, deadline]);
  } finally {
    timer.abort();
  }
}
