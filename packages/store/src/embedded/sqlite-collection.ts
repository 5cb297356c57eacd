import { Aggregator, Query } from 'mingo';
import type { AnyObject } from 'mingo/types';
import { requireStringId } from '../document-id';
import type { Collection, Filter, FindOneAndUpdateOptions, FindOptions, IndexSpec, StoreDocument, Update, UpdateResult } from '../port';
import { type PreparedUpdate, prepareUpdate, updatedCopy, upsertDocument } from './apply-update';
import type { CollectionSchema } from './collection-schema';
import { checkStorable } from './json-value';
import { updateInSql } from './update-in-sql';
import { planFilter, planSort } from './query-plan';
import { compileSimpleFilter } from './simple-filter';
import type { SqliteEngine } from './sqlite-engine';

/** Every document of a collection, for `$lookup` and friends in another collection's pipeline. */
export type CollectionReader = (name: string) => AnyObject[];

/**
 * A collection as one SQLite table of JSON documents keyed by `_id`. Each operation runs its reads
 * and writes synchronously (libsql is synchronous), so a conditional update cannot interleave with
 * another write. Conditions and sorts on indexed scalar paths run in SQL; mingo re-checks the rest.
 * `isOpen` is set for collections of a transaction: they run inside it and refuse to run after it.
 */
export class SqliteCollection<T extends StoreDocument> implements Collection<T> {
  readonly #engine: SqliteEngine;
  readonly #schema: CollectionSchema;
  readonly #readCollection: CollectionReader;
  readonly #isOpen: (() => boolean) | undefined;

  constructor(engine: SqliteEngine, schema: CollectionSchema, readCollection: CollectionReader, isOpen?: () => boolean) {
    this.#engine = engine;
    this.#schema = schema;
    this.#readCollection = readCollection;
    this.#isOpen = isOpen;
  }

  insertOne(doc: T): Promise<void> {
    return this.#run(() => this.#insert(doc));
  }

  insertMany(docs: T[]): Promise<void> {
    return this.#run(() =>
      this.#engine.batch(() => {
        for (const doc of docs) this.#insert(doc);
      }),
    );
  }

  findOne(filter: Filter<T>, options?: FindOptions): Promise<T | null> {
    return this.#run(() => {
      const [found] = this.#select(filter, { ...options, limit: 1 });
      return found ? projector<T>(options?.projection)(found) : null;
    });
  }

  find(filter: Filter<T>, options?: FindOptions): Promise<T[]> {
    return this.#run(() => this.#select(filter, options).map(projector<T>(options?.projection)));
  }

  countDocuments(filter: Filter<T> = {}): Promise<number> {
    return this.#run(() => {
      const plan = planFilter(filter, this.#schema);
      const where = plan.where.length ? ` WHERE ${plan.where.join(' AND ')}` : '';
      if (plan.exact) return this.#engine.first(`SELECT count(*) FROM ${this.#schema.table}${where}`, plan.params) as number;
      const matches = matcher(filter);
      let count = 0;
      for (const text of this.#engine.iterate(`SELECT doc FROM ${this.#schema.table}${where}`, plan.params)) {
        if (matches(JSON.parse(text as string))) count++;
      }
      return count;
    });
  }

  updateOne(filter: Filter<T>, update: Update, options?: { upsert?: boolean }): Promise<UpdateResult> {
    return this.#run(() => {
      const prepared = prepareUpdate(update);
      const [target] = this.#select(filter, { limit: 1 });
      if (target) {
        const next = updatedCopy(target, prepared, filter);
        if (next) this.#replace(next);
        return { matchedCount: 1, modifiedCount: next ? 1 : 0 };
      }
      if (!options?.upsert) return { matchedCount: 0, modifiedCount: 0 };
      const doc = upsertDocument<T>(filter, prepared);
      this.#insert(doc);
      return { matchedCount: 0, modifiedCount: 0, upsertedId: doc._id };
    });
  }

  updateMany(filter: Filter<T>, update: Update): Promise<{ matchedCount: number; modifiedCount: number }> {
    return this.#run(() => {
      const prepared = prepareUpdate(update);
      const inSql = this.#updateInSql(filter, prepared);
      if (inSql) return inSql();
      const targets = this.#select(filter);
      let modifiedCount = 0;
      this.#engine.batch(() => {
        for (const target of targets) {
          const next = updatedCopy(target, prepared, filter);
          if (!next) continue;
          this.#replace(next);
          modifiedCount++;
        }
      });
      return { matchedCount: targets.length, modifiedCount };
    });
  }

  findOneAndUpdate(filter: Filter<T>, update: Update, options: FindOneAndUpdateOptions = {}): Promise<T | null> {
    return this.#run(() => {
      const prepared = prepareUpdate(update);
      const [target] = this.#select(filter, { sort: options.sort, limit: 1 });
      if (target) {
        const next = updatedCopy(target, prepared, filter);
        if (next) this.#replace(next);
        return options.returnDocument === 'before' ? target : (next ?? target);
      }
      if (!options.upsert) return null;
      const doc = upsertDocument<T>(filter, prepared);
      this.#insert(doc);
      return options.returnDocument === 'before' ? null : doc;
    });
  }

  deleteOne(filter: Filter<T>): Promise<{ deletedCount: number }> {
    return this.#run(() => {
      const [target] = this.#select(filter, { limit: 1 });
      if (!target) return { deletedCount: 0 };
      this.#delete(target._id);
      return { deletedCount: 1 };
    });
  }

  deleteMany(filter: Filter<T>): Promise<{ deletedCount: number }> {
    return this.#run(() => {
      const plan = planFilter(filter, this.#schema);
      if (plan.exact) {
        const where = plan.where.length ? ` WHERE ${plan.where.join(' AND ')}` : '';
        return { deletedCount: this.#engine.run(`DELETE FROM ${this.#schema.table}${where}`, plan.params) };
      }
      const targets = this.#select(filter);
      this.#engine.batch(() => {
        for (const target of targets) this.#delete(target._id);
      });
      return { deletedCount: targets.length };
    });
  }

  aggregate<R = unknown>(pipeline: Record<string, unknown>[]): Promise<R[]> {
    return this.#run(() => {
      // A leading $match is a find, so it uses the indexes; the rest runs in mingo on parsed copies.
      const [first] = pipeline;
      const leadingMatch = first && Object.keys(first).length === 1 && '$match' in first;
      const docs = this.#select(leadingMatch ? (first.$match as Filter<T>) : {});
      const rest = leadingMatch ? pipeline.slice(1) : pipeline;
      if (!rest.length) return docs as unknown as R[];
      return new Aggregator(rest, { collectionResolver: this.#readCollection }).run(docs as unknown as AnyObject[]) as R[];
    });
  }

  createIndexes(indexes: IndexSpec[]): Promise<void> {
    return this.#run(() => {
      for (const spec of indexes) this.#schema.createIndex(spec);
    });
  }

  /** Every document, parsed (for other collections' `$lookup`). */
  all(): T[] {
    this.#schema.ensure();
    return this.#select({});
  }

  /**
   * Runs an operation once the connection is free (outside a transaction) or in its transaction. The
   * last check and the operation run in one synchronous stretch, so nothing can take the connection
   * in between.
   */
  async #run<R>(operation: () => R): Promise<R> {
    if (this.#isOpen) {
      if (!this.#isOpen()) throw new Error('this transaction has ended: its collections cannot be used any more');
    } else {
      while (this.#engine.busy || this.#engine.closed) await this.#engine.whenFree();
    }
    this.#schema.ensure();
    return operation();
  }

  /** SQLite's plan for a find (EXPLAIN QUERY PLAN), to check which index serves it. */
  queryPlan(filter: Filter<T>, options: FindOptions = {}): string[] {
    this.#schema.ensure();
    const { sql, params } = this.#selectSql(filter, options);
    return this.#engine.rows(`EXPLAIN QUERY PLAN ${sql}`, params).map((row) => String(row[3]));
  }

  #selectSql(filter: Filter<T>, options: FindOptions) {
    const plan = planFilter(filter, this.#schema);
    const orderBy = planSort(options.sort, this.#schema.pushable);
    const sortedBySql = !options.sort || orderBy !== undefined;
    let sql = `SELECT doc FROM ${this.#schema.table}`;
    if (plan.where.length) sql += ` WHERE ${plan.where.join(' AND ')}`;
    if (orderBy) sql += ` ORDER BY ${orderBy}`;
    const params = [...plan.params];
    // Exact in SQL: the page is cut there too.
    const pagedInSql = plan.exact && sortedBySql && Boolean(options.limit || options.skip);
    if (pagedInSql) {
      sql += ' LIMIT ? OFFSET ?';
      params.push(options.limit || -1, options.skip ?? 0);
    }
    // At most one row wanted or possible: libsql's `get` is far cheaper than reading rows.
    const oneRow = plan.pinsId || (pagedInSql && options.limit === 1);
    return { sql, params, exact: plan.exact, sortedBySql, pagedInSql, oneRow };
  }

  /** Matching documents, sorted, skipped and limited: in SQL where it can, else in mingo over SQL's candidates. */
  #select(filter: Filter<T>, options: FindOptions = {}): T[] {
    const { sql, params, exact, sortedBySql, pagedInSql, oneRow } = this.#selectSql(filter, options);
    const matches = exact ? () => true : matcher(filter);
    const skip = options.skip ?? 0;
    if (oneRow) {
      const text = this.#engine.first(sql, params) as string | undefined;
      const doc = text === undefined ? undefined : parse<T>(text);
      return doc && matches(doc) && (pagedInSql || !skip) ? [doc] : [];
    }
    if (exact && sortedBySql) return (this.#engine.values(sql, params) as string[]).map(parse<T>);
    const limit = options.limit ?? 0;
    if (sortedBySql) {
      // Rows come in order: stop reading as soon as the page is full.
      const page: T[] = [];
      let skipped = 0;
      const rows = limit ? this.#engine.pages(sql, params) : this.#engine.iterate(sql, params);
      for (const text of rows) {
        const doc = parse<T>(text as string);
        if (!matches(doc)) continue;
        if (skipped < skip) skipped++;
        else page.push(doc);
        if (limit && page.length === limit) break;
      }
      return page;
    }
    const matched: T[] = [];
    for (const text of this.#engine.iterate(sql, params)) {
      const doc = parse<T>(text as string);
      if (matches(doc)) matched.push(doc);
    }
    const stages: Record<string, unknown>[] = [{ $sort: options.sort }];
    if (skip) stages.push({ $skip: skip });
    if (limit) stages.push({ $limit: limit });
    return new Aggregator(stages).run(matched as unknown as AnyObject[]) as unknown as T[];
  }

  /**
   * An updateMany SQLite can run by itself (an exact filter, an update updateInSql takes, on fields
   * no unique index holds, so no write can be refused halfway), as a function; else undefined.
   */
  #updateInSql(filter: Filter<T>, prepared: PreparedUpdate): (() => { matchedCount: number; modifiedCount: number }) | undefined {
    const update = updateInSql(prepared);
    if (!update || update.fields.some((field) => this.#schema.inUniqueIndex(field))) return undefined;
    const plan = planFilter(filter, this.#schema);
    if (!plan.exact) return undefined;
    const where = plan.where.length ? plan.where.join(' AND ') : '1';
    return () => {
      const matchedCount = this.#engine.first(`SELECT count(*) FROM ${this.#schema.table} WHERE ${where}`, plan.params) as number;
      const modifiedCount = this.#engine.run(`UPDATE ${this.#schema.table} SET doc = ${update.set} WHERE ${where} AND ${update.changes}`, [
        ...update.setParams,
        ...plan.params,
        ...update.changesParams,
      ]);
      return { matchedCount, modifiedCount };
    };
  }

  /** Checks `doc` (not copied: only its JSON is kept), notes the kinds of its indexed values, writes it. */
  #insert(doc: T): void {
    checkStorable(doc);
    requireStringId(doc);
    this.#schema.noteValues(doc);
    try {
      this.#engine.run(`INSERT INTO ${this.#schema.table} (id, doc) VALUES (?, ?)`, [doc._id, JSON.stringify(doc)]);
    } catch (error) {
      throw this.#schema.duplicateKeyError(error, doc) ?? error;
    }
  }

  #replace(next: T): void {
    this.#schema.noteValues(next);
    try {
      this.#engine.run(`UPDATE ${this.#schema.table} SET doc = ? WHERE id = ?`, [JSON.stringify(next), next._id]);
    } catch (error) {
      throw this.#schema.duplicateKeyError(error, next) ?? error;
    }
  }

  #delete(id: string): void {
    this.#engine.run(`DELETE FROM ${this.#schema.table} WHERE id = ?`, [id]);
  }
}

function parse<T>(text: string): T {
  return JSON.parse(text) as T;
}

/** A test for the whole filter: the simple matcher where it answers, mingo otherwise. */
function matcher(filter: Record<string, unknown>): (doc: object) => boolean {
  const simple = compileSimpleFilter(filter);
  let query: Query<object> | undefined;
  return (doc) => {
    const result = simple?.(doc);
    if (result !== undefined) return result;
    query ??= new Query<object>(filter);
    return query.test(doc);
  };
}

/**
 * The projection as a function, built once per read. An inclusion of top-level fields (the common
 * case) copies those fields directly; anything else goes through one mingo pipeline, built once.
 */
function projector<T>(projection: FindOptions['projection']): (doc: T) => T {
  if (!projection || Object.keys(projection).length === 0) return (doc) => doc;
  const entries = Object.entries(projection);
  const fields = entries.filter(([, value]) => value === 1).map(([path]) => path);
  const topLevelInclusion =
    fields.length > 0 && entries.every(([path, value]) => (value === 1 || path === '_id') && !path.includes('.') && !path.startsWith('$'));
  if (topLevelInclusion) {
    if (projection._id !== 0 && !fields.includes('_id')) fields.unshift('_id');
    return (doc) => {
      const picked: Record<string, unknown> = {};
      for (const field of fields) {
        const value = (doc as Record<string, unknown>)[field];
        if (value !== undefined) picked[field] = value;
      }
      return picked as T;
    };
  }
  const pipeline = new Aggregator([{ $project: projection }]);
  return (doc) => pipeline.run([doc as unknown as AnyObject])[0] as unknown as T;
}
