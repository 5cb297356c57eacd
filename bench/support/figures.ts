// A bench's figures and scratch directory, apart from upstream-bench.ts: importing the fake YouTube
// there loads its recordings (~44 MB), which a bench printing its own RSS must not carry.
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

/** The middle value of a few runs (of an even count, the upper of the two middle ones). */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** The value at share `p` of values sorted ascending. */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;

/** The 1, 5 and 15 minute load averages, two decimals each. */
export const loadAverages = (separator: string) =>
  loadavg()
    .map((load) => load.toFixed(2))
    .join(separator);

/** Runs `body` with a fresh directory under the system's temp dir, removed afterwards. */
export async function withTempDir<T>(prefix: string, body: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  try {
    return await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
