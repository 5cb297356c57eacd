/**
 * Where the trends service reads the time. Reports compute ages and rates from it, so tests fix it
 * (through the test-only `clock.set` procedure) to get exact figures.
 */
export interface Clock {
  now(): Date;
}

export interface ControllableClock extends Clock {
  /** A fixed instant, or null to follow real time again. */
  set(now: Date | null): void;
}

export function createClock(): ControllableClock {
  let fixed: Date | null = null;
  return {
    now: () => (fixed ? new Date(fixed) : new Date()),
    set(now) {
      fixed = now;
    },
  };
}
