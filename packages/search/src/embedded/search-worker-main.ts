import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { serveCheckpoints } from '@vrs/store/embedded/serve-checkpoints';
import type { CoreCalls } from './embedded-search';
import { SqliteSearchCore } from './sqlite-search-core';

interface Request {
  id: number;
  method: keyof CoreCalls;
  args: unknown[];
}

lowerThreadPriority(workerData.options.threadNice ?? 0);
const core = new SqliteSearchCore(workerData.dir, workerData.options);
// The embedded stores' WAL checkpoints (ADR 0062), on a port of their own: never among these calls.
const stopCheckpoints = serveCheckpoints(workerData.checkpoints);

parentPort!.on('message', ({ id, method, args }: Request) => {
  try {
    const result = (core[method] as (...a: unknown[]) => unknown)(...args);
    // The stores' files are let go before the thread is terminated; a dedicated worker takes them up.
    if (method === 'close') stopCheckpoints();
    parentPort!.postMessage({ id, result });
  } catch (error) {
    const { message, stack } = error as Error;
    parentPort!.postMessage({ id, error: { message, stack } });
  }
});

/**
 * Lowers this thread's CPU priority by `steps` (ADR 0068). Linux keeps a nice value per thread, and
 * setpriority for "the calling process" (0) sets the calling thread's; elsewhere it would lower the
 * whole process, so it is left alone there. Raising a priority again needs privileges, so a
 * refusal leaves the thread at the process's priority, as it was before.
 */
function lowerThreadPriority(steps: number): void {
  if (steps <= 0 || process.platform !== 'linux') return;
  try {
    setPriority(0, Math.min(19, getPriority(0) + steps));
  } catch {
    // Refused (a sandbox without setpriority): the engine runs at the process's priority.
  }
}
