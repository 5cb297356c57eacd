/**
 * Where a service reads the time (trends reports, monitoring schedules). Tests fix or advance it
 * through each service's test-only `clock.set` procedure instead of sleeping.
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
