import { Aggregator, Query } from 'mingo';
import type { CollectionResolver } from 'mingo/types';
import { requireStringId } from '../document-id';
import { DuplicateKeyError } from '../errors';
import type { Collection, Filter, FindOneAndUpdateOptions, FindOptions, IndexSpec, StoreDocument, Update, UpdateResult } from '../port';
import { prepareUpdate, updatedCopy, upsertDocument } from './apply-update';
import { CollectionLog, type CollectionLogOptions, type LogRecord } from './collection-log';
import { deepCopy, toStored } from './json-value';
import { indexName, UniqueIndex } from './unique-index';
import { compileSimpleFilter } from './simple-filter';

/** Stages that never modify their input, so they may run on the stored documents themselves. */
const READ_ONLY_STAGES = new Set(['$match', '$sort', '$skip', '$limit']);

/**
 * A collection held in memory (a Map by `_id`) and persisted by a CollectionLog.
 *
 * Every operation does its reads and its in-memory write synchronously and only then awaits the
 * log, so a conditional update cannot interleave with another write (JS runs one task at a time).
 * Stored documents are never edited in place: a write replaces the stored object, which keeps
 * snapshots and shared sub-values safe; callers only ever see copies.
 */
export class EmbeddedCollection<T extends StoreDocument> implements Collection<T> {
  readonly #name: string;
  readonly #docs = new Map<string, T>();
  readonly #indexes = new Map<string, UniqueIndex>();
  readonly #log: CollectionLog;
  readonly #resolveCollection: CollectionResolver;

  constructor(dir: string, name: string, options: CollectionLogOptions, resolveCollection: CollectionResolver) {
    this.#name = name;
    this.#resolveCollection = resolveCollection;
    this.#log = new CollectionLog(dir, name, options, () => this.#records());
  }

  async load(): Promise<void> {
    const specs = new Map<string, IndexSpec>();
    await this.#log.load((record) => {
      if ('p' in record) this.#docs.set(record.p._id, record.p as T);
      else if ('d' in record) this.#docs.delete(record.d);
      else specs.set(indexName(record.x), record.x);
    });
    // Built once from the final state: a replay may pass through states that never coexisted.
    for (const spec of specs.values()) this.#addIndex(spec);
  }

  /** Copies of every document, for `$lookup` and friends in other collections' pipelines. */
  copies(): T[] {
    return Array.from(this.#docs.values(), deepCopy);
  }

  get failure(): unknown {
    return this.#log.failure;
  }

  close(): Promise<void> {
    return this.#log.close();
  }

  async insertOne(doc: T): Promise<void> {
    this.#log.assertWritable();
    await this.#log.write(this.#insert(toStored(doc) as T));
  }

  async insertMany(docs: T[]): Promise<void> {
    this.#log.assertWritable();
    let lines = '';
    try {
      for (const doc of docs) lines += this.#insert(toStored(doc) as T);
    } finally {
      if (lines) await this.#log.write(lines);
    }
  }

  async findOne(filter: Filter<T>, options?: FindOptions): Promise<T | null> {
    const found = this.#select(filter, { ...options, limit: 1 });
    return found.length ? this.#output(found, options?.projection)[0] : null;
  }

  async find(filter: Filter<T>, options?: FindOptions): Promise<T[]> {
    return this.#output(this.#select(filter, options), options?.projection);
  }

  async countDocuments(filter: Filter<T> = {}): Promise<number> {
    if (isEmpty(filter)) return this.#docs.size;
    const { docs, exact } = this.#candidates(filter);
    if (exact) return (docs as Set<T>).size;
    const query = new Query<T>(filter);
    let count = 0;
    for (const doc of docs) if (query.test(doc)) count++;
    return count;
  }

  async updateOne(filter: Filter<T>, update: Update, options?: { upsert?: boolean }): Promise<UpdateResult> {
    this.#log.assertWritable();
    const prepared = prepareUpdate(update);
    const [target] = this.#select(filter, { limit: 1 });
    if (target) {
      const next = updatedCopy(target, prepared, filter);
      if (next) await this.#log.write(this.#replace(target, next));
      return { matchedCount: 1, modifiedCount: next ? 1 : 0 };
    }
    if (!options?.upsert) return { matchedCount: 0, modifiedCount: 0 };
    const doc = upsertDocument<T>(filter, prepared);
    await this.#log.write(this.#insert(doc));
    return { matchedCount: 0, modifiedCount: 0, upsertedId: doc._id };
  }

  async updateMany(filter: Filter<T>, update: Update): Promise<{ matchedCount: number; modifiedCount: number }> {
    this.#log.assertWritable();
    const prepared = prepareUpdate(update);
    const targets = this.#select(filter);
    let lines = '';
    let modifiedCount = 0;
    try {
      for (const target of targets) {
        const next = updatedCopy(target, prepared, filter);
        if (!next) continue;
        lines += this.#replace(target, next);
        modifiedCount++;
      }
    } finally {
      if (lines) await this.#log.write(lines);
    }
    return { matchedCount: targets.length, modifiedCount };
  }

  async findOneAndUpdate(filter: Filter<T>, update: Update, options: FindOneAndUpdateOptions = {}): Promise<T | null> {
    this.#log.assertWritable();
    const prepared = prepareUpdate(update);
    const returnBefore = options.returnDocument === 'before';
    const [target] = this.#select(filter, { sort: options.sort, limit: 1 });
    if (target) {
      const next = updatedCopy(target, prepared, filter);
      if (next) await this.#log.write(this.#replace(target, next));
      return deepCopy(returnBefore ? target : (next ?? target));
    }
    if (!options.upsert) return null;
    const doc = upsertDocument<T>(filter, prepared);
    await this.#log.write(this.#insert(doc));
    return returnBefore ? null : deepCopy(doc);
  }

  async deleteOne(filter: Filter<T>): Promise<{ deletedCount: number }> {
    this.#log.assertWritable();
    const [target] = this.#select(filter, { limit: 1 });
    if (!target) return { deletedCount: 0 };
    await this.#log.write(this.#delete(target));
    return { deletedCount: 1 };
  }

  async deleteMany(filter: Filter<T>): Promise<{ deletedCount: number }> {
    this.#log.assertWritable();
    const targets = this.#select(filter);
    let lines = '';
    for (const target of targets) lines += this.#delete(target);
    if (lines) await this.#log.write(lines);
    return { deletedCount: targets.length };
  }

  async aggregate<R = unknown>(pipeline: Record<string, unknown>[]): Promise<R[]> {
    // Later stages may edit the documents they get ($set on a nested path, $unset...), so they run
    // on copies; the leading read-only stages run on the stored documents to copy fewer of them.
    const split = pipeline.findIndex((stage) => !READ_ONLY_STAGES.has(Object.keys(stage)[0]));
    const head = split === -1 ? pipeline : pipeline.slice(0, split);
    const options = { collectionResolver: this.#resolveCollection };
    const copies = new Aggregator(head, options).run(this.#docs.values()).map(deepCopy);
    if (split === -1) return copies as R[];
    return new Aggregator(pipeline.slice(split), options).run(copies) as R[];
  }

  async createIndexes(indexes: IndexSpec[]): Promise<void> {
    this.#log.assertWritable();
    let lines = '';
    try {
      for (const spec of indexes) lines += this.#createIndex(spec);
    } finally {
      if (lines) await this.#log.write(lines);
    }
  }

  /** Matching stored documents (not copies), sorted, skipped and limited. */
  #select(filter: Filter<T>, options: FindOptions = {}): T[] {
    const { docs, exact } = this.#candidates(filter);
    // A filter on `_id` alone is answered by the lookup: no query to compile.
    if (exact && !options.sort && !options.skip) return Array.from(docs).slice(0, options.limit || undefined);
    if (docs instanceof Set && docs.size <= 1 && !options.skip) {
      const matched = this.#matchPinned(docs as Set<T>, filter);
      if (matched) return matched;
    }
    const cursor = new Query<T>(filter).find<T>(docs);
    if (options.sort) cursor.sort(options.sort);
    if (options.skip) cursor.skip(options.skip);
    if (options.limit) cursor.limit(options.limit);
    return cursor.all();
  }

  /**
   * A filter that pins one `_id` (conditional updates, ownership checks) is tested on that one
   * document by the simple matcher; undefined when the filter or document needs mingo.
   */
  #matchPinned(docs: Set<T>, filter: Filter<T>): T[] | undefined {
    const [doc] = docs;
    if (!doc) return [];
    const match = compileSimpleFilter(filter);
    const result = match?.(doc);
    if (result === undefined) return undefined;
    return result ? [doc] : [];
  }

  /**
   * The documents a filter can match: looked up by `_id` when it pins it, else all of them.
   * `exact` when the lookup alone answers the filter.
   */
  #candidates(filter: Filter<T>): { docs: Iterable<T>; exact: boolean } {
    const id = filter._id;
    const ids = typeof id === 'string' ? [id] : inList(id);
    if (!ids) return { docs: this.#docs.values(), exact: false };
    const found = new Set<T>();
    for (const each of ids) {
      const doc = this.#docs.get(each);
      if (doc) found.add(doc);
    }
    return { docs: found, exact: hasOnlyId(filter) };
  }

  #output(docs: T[], projection: FindOptions['projection']): T[] {
    const copies = docs.map(deepCopy);
    if (!projection || isEmpty(projection)) return copies;
    // Projected after copying: mingo's exclusion projection edits nested objects in place.
    return new Aggregator([{ $project: projection }]).run(copies) as T[];
  }

  /** Checks `_id` and the unique indexes, then stores; returns the log line. */
  #insert(doc: T): string {
    requireStringId(doc);
    if (this.#docs.has(doc._id)) {
      throw new DuplicateKeyError(
        `E11000 duplicate key error collection: ${this.#name} index: _id_ dup key: { _id: ${JSON.stringify(doc._id)} }`,
        { _id: 1 },
      );
    }
    const keys = this.#uniqueKeys(doc);
    this.#docs.set(doc._id, doc);
    this.#indexKeys(doc, keys);
    return line({ p: doc });
  }

  #replace(previous: T, next: T): string {
    const keys = this.#uniqueKeys(next);
    for (const index of this.#indexes.values()) index.remove(previous);
    this.#docs.set(next._id, next);
    this.#indexKeys(next, keys);
    return line({ p: next });
  }

  #delete(doc: T): string {
    for (const index of this.#indexes.values()) index.remove(doc);
    this.#docs.delete(doc._id);
    return line({ d: doc._id });
  }

  /** The document's key in each unique index; throws DuplicateKeyError before anything changes. */
  #uniqueKeys(doc: T): Array<string | undefined> {
    const keys: Array<string | undefined> = [];
    for (const index of this.#indexes.values()) {
      const key = index.keyOf(doc);
      index.check(key, doc);
      keys.push(key);
    }
    return keys;
  }

  #indexKeys(doc: T, keys: Array<string | undefined>): void {
    let i = 0;
    for (const index of this.#indexes.values()) index.add(keys[i++], doc._id);
  }

  #createIndex(requested: IndexSpec): string {
    // Queries scan memory whatever the indexes: only unique ones change behaviour here.
    if (!requested.unique) return '';
    const spec = toStored({
      name: indexName(requested),
      key: requested.key,
      unique: true,
      partialFilterExpression: requested.partialFilterExpression,
    }) as IndexSpec & { name: string };
    const existing = this.#indexes.get(spec.name);
    if (existing) {
      if (JSON.stringify(existing.spec) === JSON.stringify(spec)) return '';
      throw new Error(`index ${spec.name} already exists on ${this.#name} with different options`);
    }
    this.#addIndex(spec);
    return line({ x: spec });
  }

  #addIndex(spec: IndexSpec): void {
    const index = new UniqueIndex(spec, this.#name);
    index.build(this.#docs.values());
    this.#indexes.set(index.name, index);
  }

  #records(): LogRecord[] {
    const records: LogRecord[] = [];
    for (const index of this.#indexes.values()) records.push({ x: index.spec });
    for (const doc of this.#docs.values()) records.push({ p: doc });
    return records;
  }
}

function line(record: LogRecord): string {
  return `${JSON.stringify(record)}\n`;
}

function isEmpty(object: object): boolean {
  for (const _ in object) return false;
  return true;
}

function hasOnlyId(filter: object): boolean {
  for (const key in filter) if (key !== '_id') return false;
  return true;
}

/** The ids of `{$in: [...strings]}`, when that is the whole `_id` condition. */
function inList(condition: unknown): string[] | undefined {
  if (typeof condition !== 'object' || condition === null) return undefined;
  const keys = Object.keys(condition);
  const list = (condition as { $in?: unknown }).$in;
  if (keys.length !== 1 || !Array.isArray(list) || !list.every((id) => typeof id === 'string')) return undefined;
  return list;
}
