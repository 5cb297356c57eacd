import { randomUUID } from 'node:crypto';
import {
  MongoBulkWriteError,
  MongoServerError,
  type Collection as DriverCollection,
  type ClientSession,
  type Document,
  type Filter as DriverFilter,
  type UpdateFilter,
} from 'mongodb';
import { requireStringId } from '../document-id';
import { DuplicateKeyError, StorageFullError } from '../errors';
import type { Collection, Filter, FindOneAndUpdateOptions, FindOptions, IndexSpec, StoreDocument, Update, UpdateResult } from '../port';
import { explicitUpsertId } from '../upsert-seed';

/**
 * The port over the official driver; it only translates options, results and errors. With a
 * session, every operation runs in that session's transaction.
 */
export class MongoCollection<T extends StoreDocument> implements Collection<T> {
  readonly #inSession: { session?: ClientSession };

  constructor(
    private readonly driver: DriverCollection<Document>,
    session?: ClientSession,
  ) {
    this.#inSession = session ? { session } : {};
  }

  insertOne(doc: T): Promise<void> {
    return translate(async () => {
      requireStringId(doc);
      await this.driver.insertOne(doc as unknown as Document, this.#inSession);
    });
  }

  insertMany(docs: T[]): Promise<void> {
    return translate(async () => {
      docs.forEach(requireStringId);
      if (docs.length) await this.driver.insertMany(docs as unknown as Document[], { ordered: true, ...this.#inSession });
    });
  }

  findOne(filter: Filter<T>, options: FindOptions = {}): Promise<T | null> {
    return translate(
      () => this.driver.findOne(query(filter), { ...findOptions(options), ...this.#inSession }) as unknown as Promise<T | null>,
    );
  }

  find(filter: Filter<T>, options: FindOptions = {}): Promise<T[]> {
    return translate(
      () => this.driver.find(query(filter), { ...findOptions(options), ...this.#inSession }).toArray() as unknown as Promise<T[]>,
    );
  }

  countDocuments(filter: Filter<T> = {}): Promise<number> {
    return translate(() => this.driver.countDocuments(query(filter), this.#inSession));
  }

  updateOne(filter: Filter<T>, update: Update, options: { upsert?: boolean } = {}): Promise<UpdateResult> {
    return translate(async () => {
      const upsert = options.upsert ?? false;
      const result = await this.driver.updateOne(query(filter), withUpsertId(filter, update, upsert), { upsert, ...this.#inSession });
      const outcome: UpdateResult = { matchedCount: result.matchedCount, modifiedCount: result.modifiedCount };
      if (result.upsertedId !== null) outcome.upsertedId = String(result.upsertedId);
      return outcome;
    });
  }

  updateMany(filter: Filter<T>, update: Update): Promise<{ matchedCount: number; modifiedCount: number }> {
    return translate(async () => {
      const { matchedCount, modifiedCount } = await this.driver.updateMany(
        query(filter),
        update as UpdateFilter<Document>,
        this.#inSession,
      );
      return { matchedCount, modifiedCount };
    });
  }

  findOneAndUpdate(filter: Filter<T>, update: Update, options: FindOneAndUpdateOptions = {}): Promise<T | null> {
    const upsert = options.upsert ?? false;
    return translate(
      () =>
        this.driver.findOneAndUpdate(query(filter), withUpsertId(filter, update, upsert), {
          upsert,
          returnDocument: options.returnDocument ?? 'after',
          ...(options.sort ? { sort: options.sort } : {}),
          ...this.#inSession,
        }) as unknown as Promise<T | null>,
    );
  }

  deleteOne(filter: Filter<T>): Promise<{ deletedCount: number }> {
    return translate(async () => ({ deletedCount: (await this.driver.deleteOne(query(filter), this.#inSession)).deletedCount }));
  }

  deleteMany(filter: Filter<T>): Promise<{ deletedCount: number }> {
    return translate(async () => ({ deletedCount: (await this.driver.deleteMany(query(filter), this.#inSession)).deletedCount }));
  }

  aggregate<R = unknown>(pipeline: Record<string, unknown>[]): Promise<R[]> {
    return translate(() => this.driver.aggregate<R & Document>(pipeline, this.#inSession).toArray());
  }

  createIndexes(indexes: IndexSpec[]): Promise<void> {
    return translate(async () => {
      if (indexes.length) await this.driver.createIndexes(indexes);
    });
  }
}

/** The port's filters are the driver's, typed loosely so repositories need no driver types. */
function query(filter: Filter<StoreDocument>): DriverFilter<Document> {
  return filter as DriverFilter<Document>;
}

function findOptions({ sort, skip, limit, projection }: FindOptions) {
  return { ...(sort && { sort }), ...(skip && { skip }), ...(limit && { limit }), ...(projection && { projection }) };
}

/** MongoDB would give an upserted document an ObjectId; the port promises a string `_id`. */
function withUpsertId(filter: Filter<StoreDocument>, update: Update, upsert: boolean): UpdateFilter<Document> {
  if (!upsert || explicitUpsertId(filter, update) !== undefined) return update as UpdateFilter<Document>;
  return { ...update, $setOnInsert: { ...(update.$setOnInsert as Document | undefined), _id: randomUUID() } };
}

async function translate<R>(operation: () => Promise<R>): Promise<R> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof MongoServerError && error.code === 11000) {
      const source = error instanceof MongoBulkWriteError ? [error.writeErrors].flat()[0]?.err : error;
      throw new DuplicateKeyError(error.message, (source as { keyPattern?: Record<string, unknown> } | undefined)?.keyPattern);
    }
    // 14031 OutOfDiskSpace: the server refuses writes while its disk is full (storage.freeSpaceCheck).
    if (error instanceof MongoServerError && (error.code === 14031 || error.codeName === 'OutOfDiskSpace'))
      throw new StorageFullError(error);
    throw error;
  }
}
