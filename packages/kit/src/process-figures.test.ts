import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootLogger } from './logger';
import type { ProcessFigures } from './process-figures';
import { startServiceServer, type ServiceServer } from './service-server';
import { router } from './trpc';

const internalToken = 'figures-token-0123456789';
let server: ServiceServer;

beforeAll(async () => {
  server = await startServiceServer({
    service: 'figures-test',
    router: router({}),
    port: 0,
    host: '127.0.0.1',
    internalToken,
    logger: rootLogger.child({}, { level: 'silent' }),
  });
});
afterAll(() => server.close());

const figures = async (query = '') =>
  fetch(`${server.url}/ops/process${query}`, { headers: { 'x-internal-token': internalToken } }).then(
    async (response) => (await response.json()) as ProcessFigures,
  );

describe('process figures at /ops/process', () => {
  it('are only for holders of the internal token', async () => {
    expect((await fetch(`${server.url}/ops/process`)).status).toBe(401);
  });

  it('report RSS and catch an event-loop stall, starting afresh after a reset', async () => {
    const started = performance.now();
    await figures('?reset=true');
    // Synchronous stalls inside callbacks of the loop, as a slow handler makes. Node's histogram
    // misses a stall in the continuation of an awaited response, and one in a timer callback when
    // its own timer falls due in the same pass; a stall in the check phase, twice over, it always sees.
    for (let stall = 0; stall < 2; stall++) {
      await new Promise<void>((resolve) =>
        setImmediate(() => {
          const stallUntil = performance.now() + 120;
          while (performance.now() < stallUntil) {
            // busy
          }
          resolve();
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    await new Promise((resolve) => setTimeout(resolve, 30));
    const stalled = await figures('?reset=true');
    expect(stalled.pid).toBe(process.pid);
    expect(stalled.rssBytes).toBeGreaterThan(10 * 1024 * 1024);
    expect(stalled.eventLoopDelayMs.max).toBeGreaterThanOrEqual(100);
    // The reset started the figures afresh: they cover only the time since.
    expect((await figures()).sinceMs).toBeLessThan(performance.now() - started - 100);
  });

  it('report the CPU time the process has used, which 50 ms of work adds to', async () => {
    const before = (await figures()).cpuMicros;
    // 50 ms of CPU, not of the clock: on a loaded machine a busy loop may lose the core for a while.
    const cpuNow = () => {
      const { user, system } = process.cpuUsage();
      return user + system;
    };
    const spinFrom = cpuNow();
    while (cpuNow() - spinFrom < 50_000) {
      // busy
    }
    const after = (await figures()).cpuMicros;
    expect(before).toBeGreaterThan(0);
    expect(after - before).toBeGreaterThanOrEqual(50_000);
  });

  it.runIf(process.platform === 'linux')(
    "report the main thread's time on a CPU, and waiting for one while more threads are busy than there are cores",
    async () => {
      const before = (await figures()).mainThread!;
      // One busy thread more than there are cores, beside this one, each for 300 ms once it started;
      // each counts itself done in shared memory, which this thread reads while it spins.
      const finished = new Int32Array(new SharedArrayBuffer(4));
      const busy = Array.from(
        { length: availableParallelism() + 1 },
        () =>
          new Worker(
            `const { workerData } = require('node:worker_threads');
            const until = Date.now() + 300; while (Date.now() < until) {}
            Atomics.add(new Int32Array(workerData), 0, 1);`,
            { eval: true, workerData: finished.buffer },
          ),
      );
      // Until every busy thread is done, and for at least 60 ms on a CPU by this thread's own count
      // (the first field of schedstat, in nanoseconds), not of the clock: on a loaded machine the
      // thread may get a small share of the time.
      const ranNanos = () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
      const spinFrom = ranNanos();
      while (Atomics.load(finished, 0) < busy.length || ranNanos() - spinFrom < 60_000_000) {
        // busy
      }
      const after = (await figures()).mainThread!;
      expect(after.runningMicros - before.runningMicros).toBeGreaterThanOrEqual(50_000);
      // With more runnable threads than cores, this one cannot have run all of its 300 ms.
      expect(after.waitingMicros - before.waitingMicros).toBeGreaterThanOrEqual(30_000);
      await Promise.all(busy.map((worker) => worker.terminate()));
    },
  );
});
