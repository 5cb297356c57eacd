export interface WindowCount {
  /** Hits counted in the current window, this one included. */
  count: number;
  /** When the current window ends and the count starts again from zero. */
  resetAt: Date;
}

/** A fixed-window counter (e.g. for rate limits); the same key with another window length is a fresh count. */
export interface WindowCounter {
  increment(key: string, windowMs: number): Promise<WindowCount>;
  /** Takes back one hit of the current window (never below zero), e.g. for a request that was not served. */
  decrement(key: string, windowMs: number): Promise<WindowCount>;
  /**
   * Adds `delta` hits at once (negative: takes them back, never below zero), as one change of the
   * count: how a process hands a batch of hits to a shared counter (ADR 0039).
   */
  add(key: string, windowMs: number, delta: number): Promise<WindowCount>;
  reset(key: string): Promise<void>;
  /** Releases what the counter opened itself (a connection it was not given). */
  close(): Promise<void>;
}

/** The stored state of one key. */
export interface WindowState {
  windowStart: number;
  windowMs: number;
  count: number;
}

/**
 * Windows are aligned to the epoch rather than to a key's first hit, so every replica computes the same
 * window from its own clock without agreeing on anything.
 */
export function currentWindow(windowMs: number, now = Date.now()): { windowStart: number; resetAt: Date } {
  if (!Number.isInteger(windowMs) || windowMs <= 0) throw new Error(`Invalid window length ${windowMs} ms: a positive integer is required`);
  const windowStart = Math.floor(now / windowMs) * windowMs;
  return { windowStart, resetAt: new Date(windowStart + windowMs) };
}

/** The count after applying `delta` to `state` in the window starting at `windowStart`. */
export function nextCount(
  state: WindowState | undefined,
  windowStart: number,
  windowMs: number,
  delta: number,
): { current: number; next: number } {
  const current = state && state.windowStart === windowStart && state.windowMs === windowMs ? state.count : 0;
  return { current, next: Math.max(0, current + delta) };
}
