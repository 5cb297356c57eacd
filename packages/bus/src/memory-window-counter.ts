import { currentWindow, nextCount, type WindowCounter, type WindowState } from './window-counter';

/** Expired windows are swept at most this often, so idle keys (one-off IPs) do not pile up. */
const sweepIntervalMs = 60_000;

/** Window counter for one process only (single-process mode, tests); replicas need the KV counter. */
export function createMemoryWindowCounter(): WindowCounter {
  const states = new Map<string, WindowState>();
  let nextSweepAt = Date.now() + sweepIntervalMs;

  function sweep(now: number): void {
    if (now < nextSweepAt) return;
    nextSweepAt = now + sweepIntervalMs;
    for (const [key, state] of states) {
      if (state.windowStart + state.windowMs <= now) states.delete(key);
    }
  }

  function add(key: string, windowMs: number, delta: number) {
    const now = Date.now();
    const { windowStart, resetAt } = currentWindow(windowMs, now);
    sweep(now);
    const { current, next } = nextCount(states.get(key), windowStart, windowMs, delta);
    if (next !== current) states.set(key, { windowStart, windowMs, count: next });
    return { count: next, resetAt };
  }

  return {
    // Async, as the shared counters are: an invalid window length is a rejection, not a throw.
    increment: async (key, windowMs) => add(key, windowMs, 1),
    decrement: async (key, windowMs) => add(key, windowMs, -1),
    add: async (key, windowMs, delta) => add(key, windowMs, delta),
    async reset(key) {
      states.delete(key);
    },
    async close() {},
  };
}
