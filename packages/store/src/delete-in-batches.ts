import type { Collection, Filter, StoreDocument } from './port';

/** Documents deleted per round trip: small enough that a large account never holds the store for long. */
const defaultBatchSize = 200;

/**
 * Deletes every document matching `filter`, `batchSize` at a time (read the ids, delete those), so
 * deleting a large account's data interleaves with other work instead of one long statement.
 * Safe to run again: a second run finds nothing and deletes nothing. Resolves with how many it deleted.
 */
export async function deleteInBatches<T extends StoreDocument>(
  collection: Collection<T>,
  filter: Filter<T>,
  batchSize = defaultBatchSize,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const ids = (await collection.find(filter, { limit: batchSize, projection: { _id: 1 } })).map((doc) => doc._id);
    if (ids.length === 0) return deleted;
    deleted += (await collection.deleteMany({ _id: { $in: ids } } as Filter<T>)).deletedCount;
    if (ids.length < batchSize) return deleted;
  }
}
