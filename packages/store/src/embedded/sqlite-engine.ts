import { AsyncLocalStorage } from 'node:async_hooks';
import type Database from 'libsql';

/** The statements a store prepares differ by filter shape only; more than this means shapes are built from data. */
const STATEMENT_CACHE_LIMIT = 500;

interface ActiveTransaction {
  open: boolean;
}

/**
 * One SQLite connection and who may use it. libsql's calls are synchronous, so a single operation
 * (its reads and its write) cannot interleave with another; a transaction, though, spans awaits. While
 * one is open every other operation waits for it to end (`whenFree`), so nothing outside a
 * transaction ever sees or joins its uncommitted writes, and transactions run one after another.
 */
export class SqliteEngine {
  readonly #db: Database.Database;
  readonly #statements = new Map<string, Database.Statement>();
  readonly #inside = new AsyncLocalStorage<ActiveTransaction>();
  #busy: Promise<void> | undefined;
  /** Bumped when a transaction rolls back: cached schema facts may describe tables it created. */
  generation = 0;
  closed = false;

  constructor(db: Database.Database) {
    this.#db = db;
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
    if (this.#db.inTransaction) return writes();
    this.#db.exec('BEGIN');
    try {
      return writes();
    } finally {
      this.#db.exec('COMMIT');
    }
  }

  /** Runs a write; returns how many rows it changed. */
  run(sql: string, params: unknown[] = []): number {
    return this.#statement(sql).run(...params).changes;
  }

  /** A cached prepared statement; reads return rows as arrays (libsql adds metadata to row objects). */
  #statement(sql: string, use: 'get' | 'rows' = 'rows'): Database.Statement {
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
    this.#db.exec(sql);
  }

  /**
   * Call before any operation outside a transaction, and run the operation synchronously after it:
   * it returns without awaiting when the connection is free, and otherwise waits until it is.
   */
  async whenFree(): Promise<void> {
    this.#assertOpen();
    if (!this.#busy) return;
    if (this.#inside.getStore()?.open) {
      throw new Error(
        "inside withTransaction, use the transaction's collections (tx.collection): the store's own would wait for it forever",
      );
    }
    // Re-checked after each wake-up: another waiting transaction may have taken the connection first.
    while (this.#busy) await this.#busy;
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
    let release!: () => void;
    this.#busy = new Promise((resolve) => (release = resolve));
    const state: ActiveTransaction = { open: true };
    try {
      this.#db.exec('BEGIN IMMEDIATE');
      try {
        const result = await this.#inside.run(state, () => work(() => state.open));
        this.#db.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
        this.generation++;
        throw error;
      }
    } finally {
      state.open = false;
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
