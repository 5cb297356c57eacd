/** Median of a list (mean of the middle two for an even count); 0 for an empty list. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
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
