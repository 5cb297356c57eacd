import type Database from 'libsql';
import { withDeadline } from '@vrs/kit';
import { sqliteStorageError } from '../errors';
import { releasePageCacheAfterWrites } from './page-cache-release';

/** The statements a store prepares differ by filter shape only; more than this means shapes are built from data. */
const STATEMENT_CACHE_LIMIT = 500;
/** See `SqliteEngine.whenFree`: far above any transaction's pause between two statements. */
const DEFAULT_STALL_MS = 10_000;

/**
 * One SQLite connection and who may use it. libsql's calls are synchronous, so a single operation
 * (its reads and its write) cannot interleave with another; a transaction, though, spans awaits. While
 * one is open every other operation waits for it to end (`whenFree`), so nothing outside a
 * transaction ever sees or joins its uncommitted writes, and transactions run one after another.
 */
export class SqliteEngine {
  readonly #db: Database.Database;
  readonly #statements = new Map<string, Database.Statement>();
  #busy: Promise<void> | undefined;
  /** Statements run so far: while a transaction is open, only its own run, so this shows it progressing. */
  #statementsRun = 0;
  readonly #stallMs: number;
  /** Bumped when a transaction rolls back: cached schema facts may describe tables it created. */
  generation = 0;
  /** Bumped by every statement that may write (`run`, `exec`, `batch`), before it runs: `Store.writeStamp`. */
  writes = 0;
  closed = false;
  /** Times the page cache was let go after a burst of writes (`releasePageCacheAfterWrites`). */
  pageCacheReleases = 0;
  readonly #stopPageCacheRelease: () => void;

  /**
   * `stallMs`: how long an operation waits for a transaction that runs no statement meanwhile before
   * it fails (see `whenFree`). `pageCacheCheckMs`: how often the end of a burst of writes is looked for.
   */
  constructor(db: Database.Database, options: { stallMs?: number; pageCacheCheckMs?: number } = {}) {
    this.#db = db;
    this.#stallMs = options.stallMs ?? DEFAULT_STALL_MS;
    this.#stopPageCacheRelease = releasePageCacheAfterWrites(
      {
        writes: () => this.writes,
        release: () => {
          // An open transaction's pages are its work in progress: asked again at the next check.
          if (this.closed || this.#db.inTransaction) return false;
          this.#db.exec('PRAGMA shrink_memory');
          this.pageCacheReleases++;
          return true;
        },
      },
      options.pageCacheCheckMs,
    );
  }

  /** Every row, as arrays of column values. */
  rows(sql: string, params: unknown[] = []): unknown[][] {
    return this.#statement(sql).all(...params) as unknown[][];
  }

  /**
   * The first column of the first row (libsql's `get`, far cheaper than reading rows through `all`).
   * Its statement is never shared with `all`/`iterate`: libsql's `get` on a statement whose last
   * `all` found no rows answers nothing, even when rows match.
   */
  first(sql: string, params: unknown[] = []): unknown {
    return (this.#statement(sql, 'get').get(...params) as unknown[] | undefined)?.[0];
  }

  /** The first column of every row. */
  values(sql: string, params: unknown[] = []): unknown[] {
    return (this.#statement(sql).all(...params) as unknown[][]).map((row) => row[0]);
  }

  /**
   * The first column of each row, read as the caller goes. The caller must read to the end: libsql's
   * iterator cannot be closed early, and a statement left mid-way keeps a read open on the connection.
   */
  *iterate(sql: string, params: unknown[] = []): Generator<unknown> {
    for (const row of this.#statement(sql).iterate(...params)) yield (row as unknown[])[0];
  }

  /**
   * The first column of each row, fetched in growing pages (`sql` + LIMIT/OFFSET), each read whole:
   * for a caller that may stop early (a filtered, limited read), which it may do at any point.
   */
  *pages(sql: string, params: unknown[] = []): Generator<unknown> {
    const paged = `${sql} LIMIT ? OFFSET ?`;
    let offset = 0;
    for (let size = 64; ; size = Math.min(size * 4, 4096)) {
      const rows = this.values(paged, [...params, size, offset]);
      yield* rows;
      if (rows.length < size) return;
      offset += size;
    }
  }

  /**
   * Runs the synchronous `writes` as one commit instead of one per statement (a commit appends to the
   * WAL each time; a hundred of them cost far more than the rows). Like MongoDB's ordered writes, what
   * succeeded before a failing statement stays: the batch is committed, then the error thrown. Inside a
   * transaction the transaction's own commit covers it.
   */
  batch<R>(writes: () => R): R {
    this.writes++;
    if (this.#db.inTransaction) return writes();
    // IMMEDIATE takes the write lock at BEGIN, where the busy timeout waits for another connection's
    // moment with it; a deferred transaction that had read first would fail its first write at once.
    this.#db.exec('BEGIN IMMEDIATE');
    let result: R;
    try {
      result = writes();
    } catch (error) {
      // SQLite may have rolled the batch back itself (a full disk does); then there is nothing to commit.
      if (this.#db.inTransaction) {
        try {
          this.#commit();
        } catch {
          // The failing statement's own error is the one to report.
        }
      }
      throw error;
    }
    this.#commit();
    return result;
  }

  /**
   * Commits, or rolls back when the commit fails (a full disk fails it, leaving the transaction
   * open): a connection left inside a transaction would take every later write into it, answered
   * as done and never committed.
   */
  #commit(): void {
    try {
      this.#db.exec('COMMIT');
    } catch (error) {
      if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
      throw sqliteStorageError(error);
    }
  }

  /** Runs a write; returns how many rows it changed. */
  run(sql: string, params: unknown[] = []): number {
    this.writes++;
    try {
      return this.#statement(sql).run(...params).changes;
    } catch (error) {
      throw sqliteStorageError(error);
    }
  }

  /** A cached prepared statement; reads return rows as arrays (libsql adds metadata to row objects). */
  #statement(sql: string, use: 'get' | 'rows' = 'rows'): Database.Statement {
    this.#statementsRun++;
    const cacheKey = `${use}\n${sql}`;
    let statement = this.#statements.get(cacheKey);
    if (!statement) {
      if (this.#statements.size >= STATEMENT_CACHE_LIMIT) this.#statements.clear();
      statement = this.#db.prepare(sql);
      if (statement.reader) statement.raw();
      this.#statements.set(cacheKey, statement);
    }
    return statement;
  }

  exec(sql: string): void {
    this.writes++;
    try {
      this.#db.exec(sql);
    } catch (error) {
      throw sqliteStorageError(error);
    }
  }

  /**
   * Call before any operation outside a transaction, and run the operation synchronously after it:
   * it returns without awaiting when the connection is free, and otherwise waits until it is. A
   * transaction calling the store's own collections would wait for itself forever, and which caller is
   * inside one is unknown (ADR 0048): a wait through `stallMs` in which the transaction ran no
   * statement fails, naming that cause; one that keeps running statements is waited for.
   */
  async whenFree(): Promise<void> {
    this.#assertOpen();
    // Re-checked after each wake-up: another waiting transaction may have taken the connection first.
    // (No early return on a free connection before it: TypeScript would keep that narrowing through
    // the awaits below and type the loop as endless.)
    for (let busy = this.#busy; busy; busy = this.#busy) {
      const before = this.#statementsRun;
      // `busy` only ever resolves (`#occupy`): a rejection here is the deadline.
      const settled = await withDeadline(busy, this.#stallMs, 'stalled').then(
        () => true,
        () => false,
      );
      if (!settled && this.#statementsRun === before) {
        throw new Error(
          `waited ${this.#stallMs} ms for a transaction that ran no statement meanwhile: inside withTransaction, use the transaction's collections (tx.collection), since the store's own wait for it to end; and do nothing there but store operations`,
        );
      }
    }
    this.#assertOpen();
  }

  get busy(): boolean {
    return this.#busy !== undefined;
  }

  /**
   * Runs `work` in one SQLite transaction: committed when it resolves, rolled back when it throws.
   * `work` receives a check that the transaction is still open, for the collections it hands out.
   */
  async transaction<R>(work: (isOpen: () => boolean) => Promise<R>): Promise<R> {
    while (this.busy) await this.whenFree();
    this.#assertOpen();
    const state = { open: true };
    return this.#occupy(async () => {
      this.#db.exec('BEGIN IMMEDIATE');
      try {
        const result = await work(() => state.open);
        this.#commit();
        return result;
      } catch (error) {
        if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
        this.generation++;
        throw error;
      } finally {
        state.open = false;
      }
    });
  }

  /**
   * Marks the connection busy while `during` runs, so every other operation waits for it
   * (`whenFree`). Called once the connection is free, in the same synchronous stretch as that check.
   */
  async #occupy<R>(during: () => Promise<R>): Promise<R> {
    let release!: () => void;
    this.#busy = new Promise((resolve) => (release = resolve));
    try {
      return await during();
    } finally {
      this.#busy = undefined;
      release();
    }
  }

  #assertOpen(): void {
    if (this.closed) throw new Error('the embedded store is closed');
  }

  async close(): Promise<void> {
    while (this.#busy) await this.#busy;
    if (this.closed) return;
    this.closed = true;
    this.#stopPageCacheRelease();
    this.#statements.clear();
    // Folds the WAL into the database now: libsql may keep the connection until its statements are
    // collected, and the next open would otherwise start by reading the whole WAL.
    try {
      this.#db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    } catch {
      // Only an optimisation: the next open replays the WAL instead.
    }
    this.#db.close();
  }
}
