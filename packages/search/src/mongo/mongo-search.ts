import { MongoClient, MongoServerError, type AnyBulkWriteOperation } from 'mongodb';
import type { SearchDocument, SearchHit, SearchIndex, StoredFields, VersionMove } from '../port';
import { mergeWidened, queryWords, roundScore } from '../query-words';
import { canWiden, searchIndexDefinition, searchPipeline } from './search-pipeline';

interface DocumentRecord {
  _id: string;
  scope: string;
  docId: string;
  text: string;
  stored: StoredFields;
}
interface ScopeRecord {
  _id: string;
  version: number;
  builtFor: number;
}

export interface MongoSearchOptions {
  /** Database holding the search collections (one per service). */
  database: string;
  /** Documents per bulk write. */
  batchSize?: number;
}

/** Unambiguous whatever the scope and id contain. */
function recordId(scope: string, id: string): string {
  return `${scope.length}:${scope}:${id}`;
}

/**
 * The production engine for MongoDB mode: documents in a collection of their own, ranked by Mongo
 * Search (`$search`: Atlas Search, or MongoDB Community Search with mongot), whose Lucene BM25
 * statistics are per index, not per scope. Scope versions live in the same database, so every
 * replica shares one index. Mongo Search indexes asynchronously: a write is searchable once mongot
 * has replicated it (about a second), which extends ADR 0003's read-your-writes caveat.
 */
export function openMongoSearch(url: string, options: MongoSearchOptions): SearchIndex {
  const client = new MongoClient(url, { ignoreUndefined: true });
  const db = client.db(options.database);
  const documents = db.collection<DocumentRecord>('search_documents');
  const scopes = db.collection<ScopeRecord>('search_scopes');
  const indexName = 'search_text';
  const batchSize = options.batchSize ?? 500;
  let ready: Promise<void> | undefined;

  /** Creates the collection's search index once, if it does not exist yet. */
  function ensureSearchIndex(): Promise<void> {
    ready ??= (async () => {
      await db.createCollection('search_documents').catch((error) => {
        if (!(error instanceof MongoServerError && error.codeName === 'NamespaceExists')) throw error;
      });
      const existing = await documents.listSearchIndexes(indexName).toArray();
      if (existing.length === 0) await documents.createSearchIndex({ name: indexName, definition: searchIndexDefinition });
    })().catch((error) => {
      ready = undefined;
      throw error;
    });
    return ready;
  }

  async function run(scope: string, words: string[], limit: number, widen: boolean): Promise<SearchHit[]> {
    await ensureSearchIndex();
    const rows = await documents.aggregate<SearchHit>(searchPipeline(indexName, scope, words, limit, widen)).toArray();
    return rows.map((row) => ({ id: row.id, text: row.text, stored: row.stored ?? {}, score: roundScore(row.score) }));
  }

  return {
    kind: 'mongo',
    async version(scope) {
      return (await scopes.findOne({ _id: scope }))?.version ?? 0;
    },
    async builtFor(scope) {
      return (await scopes.findOne({ _id: scope }))?.builtFor ?? 0;
    },
    async apply(scope: string, batch: SearchDocument[], move?: VersionMove) {
      for (let start = 0; start < batch.length; start += batchSize) {
        const operations: AnyBulkWriteOperation<DocumentRecord>[] = batch.slice(start, start + batchSize).map((doc) => ({
          replaceOne: {
            filter: { _id: recordId(scope, doc.id) },
            replacement: { scope, docId: doc.id, text: doc.text, stored: doc.stored ?? {} },
            upsert: true,
          },
        }));
        await documents.bulkWrite(operations, { ordered: false });
      }
      if (!move) return true;
      try {
        // Only a scope never versioned may be created by the move; otherwise it must still be at `from`.
        const $set = move.from === 0 ? { version: move.to, builtFor: move.to } : { version: move.to };
        const result = await scopes.updateOne({ _id: scope, version: move.from }, { $set }, { upsert: move.from === 0 });
        return result.modifiedCount + result.upsertedCount === 1;
      } catch (error) {
        // The upsert of a first move raced with a scope that exists at another version.
        if (error instanceof MongoServerError && error.code === 11000) return false;
        throw error;
      }
    },
    async search(scope, query, limit) {
      const words = queryWords(query);
      if (words.length === 0 || limit < 1) return [];
      const exact = await run(scope, words, limit, false);
      if (exact.length >= limit || !canWiden(words)) return exact;
      return mergeWidened(exact, await run(scope, words, limit, true), limit);
    },
    async drop(scope) {
      await documents.deleteMany({ scope });
      await scopes.deleteOne({ _id: scope });
    },
    close: () => client.close(),
  };
}
