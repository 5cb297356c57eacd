/**
 * The store port: repositories are written once against it, in MongoDB's own filter / update /
 * aggregation language, and run on either adapter (MongoDB, or the embedded in-process store).
 *
 * Contract for documents: plain JSON values only (objects, arrays, strings, finite numbers,
 * booleans, null). Store dates as ISO-8601 strings: they sort and compare correctly as strings on
 * both adapters, whereas a `Date` would be a BSON date on MongoDB and is refused by the embedded
 * adapter. Fields set to `undefined` are dropped on both adapters.
 * `_id` is always a string chosen by the caller (upserts that insert without one get a UUID).
 */
import type { TraceContext } from '@vrs/kit';

export interface StoreDocument {
  _id: string;
}

/** MongoDB filter language; field names of T are suggested, anything else is allowed. */
export type Filter<T> = { [K in keyof T]?: unknown } & Record<string, unknown>;

/** MongoDB update operators ($set, $inc, $unset, $push, $addToSet, $setOnInsert, ...). */
export type Update = Record<string, unknown>;

export interface FindOptions {
  sort?: Record<string, 1 | -1>;
  skip?: number;
  /** 0 or absent means no limit, as in MongoDB. */
  limit?: number;
  projection?: Record<string, 0 | 1>;
}

export interface IndexSpec {
  key: Record<string, 1 | -1>;
  unique?: boolean;
  /** Defaults to MongoDB's generated name, e.g. `accountId_1_day_-1`. */
  name?: string;
  /** E.g. `{sourceKey: {$exists: true}}` so documents without the field are not indexed. */
  partialFilterExpression?: Record<string, unknown>;
}

export interface UpdateResult {
  matchedCount: number;
  modifiedCount: number;
  upsertedId?: string;
}

export interface FindOneAndUpdateOptions {
  upsert?: boolean;
  /** Defaults to 'after'. */
  returnDocument?: 'before' | 'after';
  sort?: Record<string, 1 | -1>;
}

export interface Collection<T extends StoreDocument> {
  /** Throws DuplicateKeyError when `_id` or a unique index clashes; nothing is written then. */
  insertOne(doc: T): Promise<void>;
  /**
   * Ordered, not atomic (as MongoDB's default): documents are inserted in order and the first
   * failure (e.g. DuplicateKeyError) stops the batch; the documents before it stay inserted, the
   * failing one and those after it are not inserted.
   */
  insertMany(docs: T[]): Promise<void>;
  findOne(filter: Filter<T>, options?: FindOptions): Promise<T | null>;
  /** Without `sort` the order is unspecified. */
  find(filter: Filter<T>, options?: FindOptions): Promise<T[]>;
  countDocuments(filter?: Filter<T>): Promise<number>;
  updateOne(filter: Filter<T>, update: Update, options?: { upsert?: boolean }): Promise<UpdateResult>;
  /** Not atomic across documents: a failure (e.g. DuplicateKeyError) leaves earlier ones updated. */
  updateMany(filter: Filter<T>, update: Update): Promise<{ matchedCount: number; modifiedCount: number }>;
  /** Atomic: the match and the update cannot interleave with another write. */
  findOneAndUpdate(filter: Filter<T>, update: Update, options?: FindOneAndUpdateOptions): Promise<T | null>;
  deleteOne(filter: Filter<T>): Promise<{ deletedCount: number }>;
  deleteMany(filter: Filter<T>): Promise<{ deletedCount: number }>;
  /** `$lookup` / `$unionWith` may name other collections of the same store. */
  aggregate<R = unknown>(pipeline: Record<string, unknown>[]): Promise<R[]>;
  /**
   * Idempotent. Declared indexes serve equality and range prefixes and sorts on both adapters;
   * queries are correct without them, only slower. Not inside a transaction.
   */
  createIndexes(indexes: IndexSpec[]): Promise<void>;
}

/** Where collections come from: the store itself, or one transaction of it. */
export interface StoreScope {
  collection<T extends StoreDocument>(name: string): Collection<T>;
}

export interface Store extends StoreScope {
  readonly kind: 'embedded' | 'mongo';
  /**
   * Runs `work` in one multi-document transaction: every write made through `tx.collection(...)` is
   * committed together when `work` resolves, or none is when it throws. Use only `tx`'s collections
   * inside: on the embedded store the store's own wait for the transaction to end, so such a call
   * fails once the transaction has run no statement for `transactionStallMs` (ADR 0048).
   * MongoDB may run `work` again after a transient error, so `work` must do nothing but store
   * operations; keep it short. Transactions are serializable on the embedded store (one at a time)
   * and snapshot-isolated on MongoDB (a write conflict retries `work`). `trace` is the request's
   * trace context, with tracing on: the transaction's span goes under it (ADR 0117).
   */
  withTransaction<R>(work: (tx: StoreScope) => Promise<R>, trace?: TraceContext): Promise<R>;
  /**
   * A number that changes whenever something may have been written to this store since it was last
   * asked, or undefined when the adapter cannot know: MongoDB's other clients write without telling
   * this one. The embedded store is the only writer of its directory (its lock), so it counts its own
   * writes. A cache of small, hot reads may answer from what it read while this stays the same.
   */
  writeStamp(): number | undefined;
  /** Throws when the backing store is unreachable or unusable (readiness checks use it). */
  ping(): Promise<void>;
  /** Flushes pending writes and releases the store. */
  close(): Promise<void>;
}
