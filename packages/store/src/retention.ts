import { createPeriodicSweep, type Logger } from '@vrs/kit';
import type { Collection, IndexSpec, StoreDocument } from './port';

/**
 * Retention through the port (ADR 0029): a document that may be deleted after a moment carries it
 * as `expiresAt`, an ISO-8601 string like every date of the port, and a sweeper deletes those whose
 * moment has passed with one `deleteMany` on the expiry index. The same sweeper runs on both
 * adapters: a MongoDB TTL index would need a BSON Date, which the port does not store.
 */
export interface ExpiringDocument extends StoreDocument {
  /** When the document may be deleted (ISO-8601); absent = kept. */
  expiresAt?: string;
}

/** Declare on every collection a sweeper prunes: the sweep's range condition runs on it. */
export const expiryIndex: IndexSpec = { key: { expiresAt: 1 }, name: 'expiresAt_1' };

/** The `expiresAt` of a document written at `nowMs` and kept for `ttlMs`. */
export function expiresAt(nowMs: number, ttlMs: number): string {
  return new Date(nowMs + ttlMs).toISOString();
}

/** Deletes the documents whose `expiresAt` is at or before `nowMs`; documents without one stay. */
export async function deleteExpired(collection: Collection<ExpiringDocument>, nowMs: number): Promise<number> {
  const { deletedCount } = await collection.deleteMany({ expiresAt: { $lte: new Date(nowMs).toISOString() } });
  return deletedCount;
}

export interface RetentionSweeperOptions {
  /** The collections to prune, by name for the log. */
  collections: Record<string, Collection<ExpiringDocument>>;
  /** Milliseconds since the epoch; tests pass a controlled clock and call `sweepOnce`. */
  clock: () => number;
  intervalMs: number;
  logger: Logger;
}

/**
 * Deletes expired documents once at start (what expired while the process was down) and then every
 * `intervalMs`, so a document outlives its `expiresAt` by at most one interval. Readers that must
 * not see an expired document in that interval check `expiresAt` themselves.
 */
export function createRetentionSweeper({ collections, clock, intervalMs, logger }: RetentionSweeperOptions) {
  async function sweepOnce(): Promise<number> {
    const now = clock();
    let total = 0;
    for (const [name, collection] of Object.entries(collections)) {
      const deleted = await deleteExpired(collection, now);
      if (deleted > 0) logger.info({ collection: name, deleted }, 'expired documents deleted');
      total += deleted;
    }
    return total;
  }

  return createPeriodicSweep({ name: 'retention sweep', intervalMs, logger, sweep: sweepOnce });
}
