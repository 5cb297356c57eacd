import { parentPort, workerData } from 'node:worker_threads';
import { serveCheckpoints } from '@vrs/store/embedded/serve-checkpoints';
import type { CoreCalls } from './embedded-search';
import { SqliteSearchCore } from './sqlite-search-core';

interface Request {
  id: number;
  method: keyof CoreCalls;
  args: unknown[];
}

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
