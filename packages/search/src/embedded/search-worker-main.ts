import { parentPort, workerData } from 'node:worker_threads';
import type { CoreCalls } from './embedded-search';
import { SqliteSearchCore } from './sqlite-search-core';

interface Request {
  id: number;
  method: keyof CoreCalls;
  args: unknown[];
}

const core = new SqliteSearchCore(workerData.dir, workerData.options);

parentPort!.on('message', ({ id, method, args }: Request) => {
  try {
    const result = (core[method] as (...a: unknown[]) => unknown)(...args);
    parentPort!.postMessage({ id, result });
  } catch (error) {
    const { message, stack } = error as Error;
    parentPort!.postMessage({ id, error: { message, stack } });
  }
});
