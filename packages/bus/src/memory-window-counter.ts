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
    async increment(key, windowMs) {
      return add(key, windowMs, 1);
    },
    async decrement(key, windowMs) {
      return add(key, windowMs, -1);
    },
    async add(key, windowMs, delta) {
      return add(key, windowMs, delta);
    },
    async reset(key) {
      states.delete(key);
    },
    async close() {},
  };
}
