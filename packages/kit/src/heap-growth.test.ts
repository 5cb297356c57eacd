import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { applyHeapGrowth } from './heap-growth';
import { baseEnvSchema, ConfigError, loadConfig } from './config';

const run = promisify(execFile);
const heapGrowth = fileURLToPath(new URL('./heap-growth.ts', import.meta.url));

/**
 * A process with ~25 MB live that keeps promoting short-lived garbage to the old space, under
 * `applyHeapGrowth(percent)`: the largest heap V8 committed on the way.
 */
async function peakHeapMb(percent: number): Promise<number> {
  const program = `
    const { applyHeapGrowth } = await import(${JSON.stringify(heapGrowth)});
    applyHeapGrowth(${percent});
    const live = Array.from({ length: 300000 }, (_, i) => ({ a: 'live' + i, b: [i] }));
    const ring = new Array(300000);
    let peak = 0;
    for (let i = 0; i < 6000000; i++) {
      ring[i % ring.length] = { q: 'x' + i, r: [i, i] };
      if (i % 50000 === 0) peak = Math.max(peak, process.memoryUsage().heapTotal);
    }
    console.log(live.length && peak / 1048576);`;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program]);
  return Number(stdout.trim());
}

describe('HEAP_GROWTH_PERCENT', () => {
  it('is 30 unless set, 0 leaves the heap to V8, and anything else is refused at start', () => {
    expect(loadConfig(baseEnvSchema, {}).HEAP_GROWTH_PERCENT).toBe(30);
    expect(loadConfig(baseEnvSchema, { HEAP_GROWTH_PERCENT: '0' }).HEAP_GROWTH_PERCENT).toBe(0);
    for (const wrong of ['-1', '12.5', 'lots', '301'])
      expect(() => loadConfig(baseEnvSchema, { HEAP_GROWTH_PERCENT: wrong })).toThrow(ConfigError);
    expect(() => applyHeapGrowth(-5)).toThrow(RangeError);
  });

  it('keeps a process that churns through its old space from growing its heap the way V8 alone lets it', { timeout: 60_000 }, async () => {
    const [unbounded, capped] = await Promise.all([peakHeapMb(0), peakHeapMb(50)]);
    expect(unbounded).toBeGreaterThan(150);
    expect(capped).toBeLessThan(unbounded * 0.6);
  });
});
