import { parentPort, workerData } from 'node:worker_threads';
import type { CoreCalls } from './embedded-search';
import { SqliteSearchCore } from './sqlite-search-core';

interface Request {
  id: number;
  method: keyof CoreCalls;
  args: unknown[];
}

const core = new SqliteSearchCore(workerData.dir, workerData.options);

const port = parentPort;
if (!port) throw new Error('search-worker-main runs in a worker thread');
port.on('message', ({ id, method, args }: Request) => {
  try {
    const result = (core[method] as (...a: unknown[]) => unknown)(...args);
    port.postMessage({ id, result });
  } catch (error) {
    const { message, stack } = error as Error;
    port.postMessage({ id, error: { message, stack } });
  }
});
