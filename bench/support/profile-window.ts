/**
 * When the benchmark profiles the processes it starts (VRS_CPU_PROF_DIR, see @vrs/testing/processes),
 * prints the monotonic-clock window of the measured runs, so a profile's samples can be cut to it
 * (V8 stamps samples with the same clock); startup and warmup then stay out of the figures.
 */
export async function measuredWindow<T>(run: () => Promise<T>, label?: string): Promise<T> {
  if (!process.env.VRS_CPU_PROF_DIR) return run();
  const from = process.hrtime.bigint() / 1000n;
  const result = await run();
  console.log(`profile window${label ? ` of ${label}` : ''} (µs, monotonic): ${from} ${process.hrtime.bigint() / 1000n}`);
  return result;
}
