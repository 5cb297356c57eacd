/** Median of a list (mean of the middle two for an even count); 0 for an empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  // The middle value twice for an odd count, the middle two for an even one.
  const lower = sorted[Math.ceil(sorted.length / 2) - 1];
  const upper = sorted[Math.floor(sorted.length / 2)];
  return lower === undefined || upper === undefined ? 0 : (lower + upper) / 2;
}

/**
 * Mid-rank percentile of `value` within `sample`: the share of the sample below it, counting ties
 * as half, as an integer 0–100. Hand-computable, and ties score the same.
 */
export function percentileRank(value: number, sample: readonly number[]): number {
  if (sample.length === 0) return 0;
  const below = sample.filter((other) => other < value).length;
  const equal = sample.filter((other) => other === value).length;
  return Math.round((100 * (below + equal / 2)) / sample.length);
}

/** Rounded to `digits` decimals: reports carry readable figures, and tests compare them exactly. */
export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
