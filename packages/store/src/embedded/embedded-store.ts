import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'libsql';
import type { AnyObject } from 'mingo/types';
import type { Collection, Store, StoreDocument, StoreScope } from '../port';
import { CollectionSchema } from './collection-schema';
import { lockDirectory } from './directory-lock';
import { importLegacyCollections } from './legacy-import';
import { SqliteCollection } from './sqlite-collection';
import { SqliteEngine } from './sqlite-engine';
import { quoteIdentifier, valueKindSql } from './sql-paths';

export interface EmbeddedStoreOptions {
  /**
   * SQLite's `synchronous` in WAL mode. `normal` (default): a commit is in the operating system's
   * hands when the call returns, so it survives `kill -9` of the process; power loss may undo the last
   * commits but never corrupts. `full`: every commit waits for fsync (survives power loss), which
   * blocks the event loop for the length of an fsync per write.
   */
  synchronous?: 'normal' | 'full';
  /**
   * SQLite's `wal_autocheckpoint`: the commit that takes the WAL past this many pages copies it into
   * the database (ADR 0106); SQLite's default, 1,000 (about 4 MiB).
   */
  autocheckpointPages?: number;
  /**
   * How long an operation waits for a transaction that runs no statement meanwhile before it fails
   * (a transaction calling the store's own collections instead of `tx`'s); 10 s.
   */
  transactionStallMs?: number;
}

/** Page cache per store, in MiB: what SQLite keeps in memory whatever the size of the data. */
const CACHE_MIB = 16;
/** How long a write waits, blocking the thread, for a lock another connection holds (SQLite's busy timeout). */
const WRITE_LOCK_WAIT_MS = 200;
/** Names become table names; kept to what the file-based adapter accepted. */
const COLLECTION_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;
export const DATABASE_FILE = 'store.db';

/**
 * The in-process store: one SQLite database (through libsql) under `dir`, documents as JSON text,
 * declared indexes as expression indexes. One process owns a directory at a time: `LOCK` names it
 * and a second opener gets StoreLockedError. (SQLite's exclusive locking mode
 * would back that up, but libsql releases a closed connection's file lock only when its statements
 * are garbage-collected, which would refuse a reopen in the same process.)
 */
export async function openEmbeddedStore(dir: string, options: EmbeddedStoreOptions = {}): Promise<Store> {
  await mkdir(dir, { recursive: true });
  const unlock = await lockDirectory(dir);
  let store: EmbeddedStore;
  try {
    const engine = new SqliteEngine(openDatabase(dir, options), { stallMs: options.transactionStallMs });
    store = new EmbeddedStore(dir, engine, unlock);
  } catch (error) {
    await unlock();
    throw error;
  }
  try {
    await importLegacyCollections(dir, store);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

function openDatabase(dir: string, options: EmbeddedStoreOptions): Database.Database {
  const db = new Database(join(dir, DATABASE_FILE));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    // This connection is the store's only writer; another one (an operator's sqlite3 shell) may take
    // the write lock for a moment. Waiting that out beats failing the write with SQLITE_BUSY.
    db.pragma(`busy_timeout = ${WRITE_LOCK_WAIT_MS}`);
    db.pragma(`cache_size = -${CACHE_MIB * 1024}`);
    // After a checkpoint the WAL file is cut back to this size instead of keeping its peak.
    db.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
    // SQLite's auto-checkpoint (ADR 0106): the only connection on the file checkpoints with no writer
    // beside it, so every checkpoint copies the whole WAL and the next write starts it over.
    if (options.autocheckpointPages !== undefined) db.pragma(`wal_autocheckpoint = ${options.autocheckpointPages}`);
    db.exec(`CREATE TABLE IF NOT EXISTS _indexes (collection TEXT NOT NULL, name TEXT NOT NULL, spec TEXT NOT NULL, PRIMARY KEY (collection, name));
      CREATE TABLE IF NOT EXISTS _complex_paths (collection TEXT NOT NULL, path TEXT NOT NULL, PRIMARY KEY (collection, path));
      CREATE TABLE IF NOT EXISTS _boolean_paths (collection TEXT NOT NULL, path TEXT NOT NULL, PRIMARY KEY (collection, path));`);
    sortBooleanPaths(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Stores written before booleans had a kind of their own (`_boolean_paths`, see valueKindAt) listed
 * an indexed path that held a boolean as complex, which kept every condition on it out of SQL: the
 * monitors' `{enabled: true}` made the scheduler's due query scan and sort the whole collection. Once
 * per store (user_version 0 → 1), each such path is looked at again: one scan, or two, per path.
 */
function sortBooleanPaths(db: Database.Database): void {
  const [version] = db.prepare('PRAGMA user_version').raw().get() as [number];
  if (version !== 0) return;
  db.exec('BEGIN IMMEDIATE');
  try {
    const listed = db.prepare('SELECT collection, path FROM _complex_paths').raw().all() as [string, string][];
    for (const [collection, path] of listed) {
      const table = quoteIdentifier(`c_${collection}`);
      const holds = (kind: 'boolean' | 'complex') =>
        db.prepare(`SELECT 1 FROM ${table} WHERE ${valueKindSql(path, kind)} LIMIT 1`).get() !== undefined;
      if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(`c_${collection}`) || holds('complex')) continue;
      db.prepare('DELETE FROM _complex_paths WHERE collection = ? AND path = ?').run(collection, path);
      if (holds('boolean')) db.prepare('INSERT OR IGNORE INTO _boolean_paths (collection, path) VALUES (?, ?)').run(collection, path);
    }
    db.exec('PRAGMA user_version = 1');
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

class EmbeddedStore implements Store {
  readonly kind = 'embedded';
  readonly #dir: string;
  readonly #engine: SqliteEngine;
  readonly #schemas = new Map<string, CollectionSchema>();
  readonly #unlock: () => Promise<void>;
  readonly #readCollection = (name: string) => this.#open(name).all() as unknown as AnyObject[];

  constructor(dir: string, engine: SqliteEngine, unlock: () => Promise<void>) {
    this.#dir = dir;
    this.#engine = engine;
    this.#unlock = unlock;
  }

  collection<T extends StoreDocument>(name: string): Collection<T> {
    return this.#open<T>(name);
  }

  /**
   * One SQLite transaction around `work`. Operations outside it wait until it ends, so transactions
   * are serializable; keep them short (no network calls inside).
   */
  withTransaction<R>(work: (tx: StoreScope) => Promise<R>): Promise<R> {
    return this.#engine.transaction((isOpen) =>
      work({ collection: <T extends StoreDocument>(name: string) => this.#open<T>(name, isOpen) as Collection<T> }),
    );
  }

  writeStamp(): number {
    return this.#engine.writes;
  }

  async ping(): Promise<void> {
    await this.#engine.whenFree();
    await access(this.#dir, constants.W_OK);
    this.#engine.first('SELECT 1');
  }

  async close(): Promise<void> {
    if (this.#engine.closed) return;
    await this.#engine.close();
    await this.#unlock();
  }

  #open<T extends StoreDocument>(name: string, isOpen?: () => boolean): SqliteCollection<T> {
    if (this.#engine.closed) throw new Error('the embedded store is closed');
    let schema = this.#schemas.get(name);
    if (!schema) {
      if (!COLLECTION_NAME.test(name)) throw new TypeError(`invalid collection name: ${JSON.stringify(name)}`);
      schema = new CollectionSchema(this.#engine, name);
      this.#schemas.set(name, schema);
    }
    return new SqliteCollection<T>(this.#engine, schema, this.#readCollection, isOpen);
  }
}
