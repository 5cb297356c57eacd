import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import type { SearchIndex } from '../port';
import { SqliteSearchCore, type SqliteSearchOptions } from './sqlite-search-core';
import { deliverInTurns } from './deliver-in-turns';

export interface EmbeddedSearchOptions extends SqliteSearchOptions {
  /** Documents per write transaction: bounds how long one write holds the engine (ADR 0024). */
  batchSize?: number;
}

/** The core's calls, as the worker protocol names them. */
export type CoreCalls = Pick<SqliteSearchCore, 'version' | 'builtFor' | 'apply' | 'search' | 'drop' | 'close'>;
type Call = <K extends keyof CoreCalls>(method: K, args: Parameters<CoreCalls[K]>) => Promise<ReturnType<CoreCalls[K]>>;

/**
 * Large writes go in transactions of `batchSize` documents, the version move with the last one, so
 * queries get their turn between them (on the worker) and the event loop too (in thread).
 */
function batchedIndex(call: Call, batchSize: number, between: () => Promise<unknown>): SearchIndex {
  return {
    kind: 'embedded',
    version: (scope) => call('version', [scope]),
    builtFor: (scope) => call('builtFor', [scope]),
    async apply(scope, documents, move) {
      for (let start = 0; start + batchSize < documents.length; start += batchSize) {
        await call('apply', [scope, documents.slice(start, start + batchSize)]);
        await between();
      }
      const lastStart = documents.length === 0 ? 0 : Math.floor((documents.length - 1) / batchSize) * batchSize;
      return call('apply', [scope, documents.slice(lastStart), move]);
    },
    search: (scope, query, limit) => call('search', [scope, query, limit]),
    drop: (scope) => call('drop', [scope]),
    close: () => call('close', []),
  };
}

/**
 * The embedded engine on the calling thread. SQLite is synchronous, so a query holds the event
 * loop for as long as it runs: what the bench measures as the raw engine, and fine for tests and
 * small data. Services use `openEmbeddedSearch`.
 */
export function openEmbeddedSearchInThread(dir: string, options: EmbeddedSearchOptions = {}): SearchIndex {
  const core = new SqliteSearchCore(dir, options);
  const call: Call = async (method, args) => (core[method] as (...a: unknown[]) => never)(...args);
  return batchedIndex(call, options.batchSize ?? 500, () => yieldToEventLoop());
}

interface Reply {
  id: number;
  result?: unknown;
  error?: { message: string; stack?: string };
}

/**
 * The embedded engine on a worker thread of its own: queries and writes never block the caller's
 * event loop, whatever the size of a project (ADR 0024). Calls are served in order; each costs a
 * message round trip (tens of microseconds).
 */
export function openEmbeddedSearch(dir: string, options: EmbeddedSearchOptions = {}): SearchIndex {
  const worker = new Worker(new URL('./search-worker.mjs', import.meta.url), { workerData: { dir, options } });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let failure: Error | undefined;

  function failAll(error: Error) {
    failure = error;
    for (const request of pending.values()) request.reject(error);
    pending.clear();
  }
  // A few replies per event-loop turn (`deliverInTurns`): the requests they resume run before the loop turns.
  const deliver = deliverInTurns((reply: Reply) => {
    const request = pending.get(reply.id);
    if (!request) return;
    pending.delete(reply.id);
    // Referenced only while a call is outstanding, so an idle engine never keeps a process alive.
    if (pending.size === 0) worker.unref();
    if (reply.error) request.reject(Object.assign(new Error(reply.error.message), { stack: reply.error.stack }));
    else request.resolve(reply.result);
  });
  worker.on('message', deliver);
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`the search worker exited (code ${code})`)));
  // After the listeners: adding a 'message' listener refs the worker's port again.
  worker.unref();

  const call: Call = (method, args) => {
    if (failure) return Promise.reject(failure);
    const id = ++nextId;
    if (pending.size === 0) worker.ref();
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ id, method, args });
    });
  };
  const index = batchedIndex(call, options.batchSize ?? 500, async () => undefined);
  return {
    ...index,
    async close() {
      if (failure) return;
      await call('close', []);
      await worker.terminate();
    },
  };
}
