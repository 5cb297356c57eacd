import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { SearchDocument, SearchIndex, VersionMove } from '../port';
import { SqliteSearchCore, type SqliteSearchOptions } from './sqlite-search-core';

export interface EmbeddedSearchOptions extends SqliteSearchOptions {
  /** Documents per write transaction: bounds how long one write holds the thread (ADR 0024). */
  batchSize?: number;
}

/**
 * The embedded engine on the calling thread: SQLite is synchronous, so every call is bounded
 * instead — writes go in transactions of `batchSize` documents with a turn of the event loop
 * between them. Queries run whole; see `openEmbeddedSearch` for the worker-thread variant.
 */
export function openEmbeddedSearchInThread(dir: string, options: EmbeddedSearchOptions = {}): SearchIndex {
  const core = new SqliteSearchCore(dir, options);
  const batchSize = options.batchSize ?? 500;
  return {
    kind: 'embedded',
    version: async (scope) => core.version(scope),
    async apply(scope: string, documents: SearchDocument[], move?: VersionMove) {
      for (let start = 0; start + batchSize < documents.length; start += batchSize) {
        core.apply(scope, documents.slice(start, start + batchSize));
        await yieldToEventLoop();
      }
      const lastStart = documents.length === 0 ? 0 : Math.floor((documents.length - 1) / batchSize) * batchSize;
      return core.apply(scope, documents.slice(lastStart), move);
    },
    search: async (scope, query, limit) => core.search(scope, query, limit),
    drop: async (scope) => core.drop(scope),
    close: async () => core.close(),
  };
}
