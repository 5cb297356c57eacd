import { setFlagsFromString } from 'node:v8';

/**
 * Caps how far V8 grows the heap past what the last full collection kept (`HEAP_GROWTH_PERCENT`,
 * ADR 0044). Left alone, V8 sizes the next limit for throughput, up to about four times the live
 * heap, so a busy gateway holding ~85 MB live sat at 300-550 MB RSS; at 50% it stayed near 250 MB with
 * no CPU cost measurable per request (more full collections, each one as small as the live heap).
 * The default is 30 (ADR 0077): 7-9 MB less again under the search load, still at no measurable cost.
 * The flag is read at every collection, so setting it once the process runs takes effect from the next.
 */
export function applyHeapGrowth(percent: number): void {
  if (!Number.isInteger(percent) || percent < 0) throw new RangeError(`heap growth must be a whole number of percent ≥ 0, not ${percent}`);
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
