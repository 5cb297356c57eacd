export interface BusTimings {
  /** How long a delivered event may stay unacknowledged before it is handed out again. */
  ackWaitMs: number;
  /** Deliveries per event, the first included; after the last failure the event is dropped with an error log. */
  maxDeliver: number;
  /** Delay before redelivering after a handler threw; the n-th failure uses entry n (the last one repeats). */
  redeliveryBackoffMs?: number[];
}

export const defaultBusTimings: Required<BusTimings> = {
  ackWaitMs: 30_000,
  maxDeliver: 10,
  redeliveryBackoffMs: [1_000, 5_000, 15_000, 30_000, 60_000],
};

export function resolveBusTimings(overrides: Partial<BusTimings> = {}): Required<BusTimings> {
  const timings = { ...defaultBusTimings, ...overrides };
  const backoff = timings.redeliveryBackoffMs.length > 0 ? timings.redeliveryBackoffMs : defaultBusTimings.redeliveryBackoffMs;
  if (!(timings.ackWaitMs > 0) || !Number.isInteger(timings.maxDeliver) || timings.maxDeliver < 1 || backoff.some((ms) => !(ms >= 0))) {
    throw new Error(`Invalid bus timings ${JSON.stringify(overrides)}: ackWaitMs > 0, maxDeliver an integer >= 1, backoff entries >= 0`);
  }
  return { ...timings, redeliveryBackoffMs: backoff };
}

/** Delay before the next delivery after delivery number `deliveryCount` (1-based) failed. */
export function redeliveryDelayMs(timings: Required<BusTimings>, deliveryCount: number): number {
  const backoff = timings.redeliveryBackoffMs;
  // resolveBusTimings leaves at least one entry; the last repeats for every later delivery.
  return backoff[Math.min(Math.max(deliveryCount, 1), backoff.length) - 1] ?? 0;
}
