import { SqliteSearchCore } from './embedded/sqlite-search-core';
import type { SearchDocument, SearchHit } from './port';

/**
 * Ranks a handful of documents that are not stored anywhere (public evidence gathered for one
 * answer) with the embedded engine's BM25 and widening, in an in-memory database thrown away after.
 */
export function rankDocuments(documents: SearchDocument[], query: string, limit: number): SearchHit[] {
  const core = new SqliteSearchCore(null, { cacheKiB: 1024 });
  try {
    core.apply('once', documents);
    return core.search('once', query, limit);
  } finally {
    core.close();
  }
}
