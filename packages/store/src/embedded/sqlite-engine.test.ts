import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'libsql';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { holdSqliteWriteLock } from '@vrs/testing/sqlite-write-lock';
import { makeTempDir } from '@vrs/testing/temp-dir';
import { AppError } from '@vrs/kit';
import { StorageFullError } from '../errors';
import { SqliteEngine } from './sqlite-engine';

let engine: SqliteEngine | undefined;

afterEach(async () => {
  await engine?.close();
  engine = undefined;
});

function openEngine() {
  const db = new Database(join(makeTempDir('sqlite-engine-'), 'store.db'));
  db.exec('PRAGMA journal_mode=WAL; CREATE TABLE t (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
  engine = new SqliteEngine(db, { pageCacheCheckMs: 20 });
  return engine;
}

function writeRows(engine: SqliteEngine, from: number, count: number) {
  engine.batch(() => {
    for (let i = from; i < from + count; i++) engine.run('INSERT INTO t (id, text) VALUES (?, ?)', [i, `row ${i} `.repeat(20)]);
  });
}

describe('SqliteEngine page cache', () => {
  it('is let go once a burst of writes ends, and what was written still reads', async () => {
    const store = openEngine();
    writeRows(store, 0, 2_000);
    await vi.waitFor(() => expect(store.pageCacheReleases).toBe(1), { timeout: 20_000 });
    expect(store.first('SELECT count(*) FROM t')).toBe(2_000);
    // Reads are not writes: the cache they fill is kept.
    await sleep(100);
    expect(store.pageCacheReleases).toBe(1);
    writeRows(store, 2_000, 10);
    await vi.waitFor(() => expect(store.pageCacheReleases).toBe(2), { timeout: 20_000 });
  });

  it('is kept while a transaction is open, and let go after it ends', async () => {
    const store = openEngine();
    await store.transaction(async () => {
      writeRows(store, 0, 100);
      await sleep(150);
      expect(store.pageCacheReleases).toBe(0);
    });
    await vi.waitFor(() => expect(store.pageCacheReleases).toBe(1), { timeout: 20_000 });
    expect(store.first('SELECT count(*) FROM t')).toBe(100);
  });
});

describe('SqliteEngine batch', () => {
  it('takes the write lock at its start, so a batch that reads before it writes waits out another connection holding it', async () => {
    const file = join(makeTempDir('sqlite-engine-'), 'store.db');
    const db = new Database(file);
    db.exec('PRAGMA journal_mode=WAL; PRAGMA busy_timeout=1000; CREATE TABLE t (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
    engine = new SqliteEngine(db);
    const store = engine;
    const lock = await holdSqliteWriteLock(file, 40);
    store.batch(() => {
      const count = store.first('SELECT count(*) FROM t') as number;
      store.run('INSERT INTO t (id, text) VALUES (?, ?)', [count + 1, 'after a read']);
    });
    await lock.released;
    expect(store.first('SELECT text FROM t WHERE id = 1')).toBe('after a read');
  });
});

describe('SqliteEngine out of space (issue 37, item 8)', () => {
  /** An engine over a database SQLite lets grow to `pages` pages: past them it answers SQLITE_FULL, as on a full disk. */
  function openLimited() {
    const db = new Database(join(makeTempDir('sqlite-full-'), 'store.db'));
    db.exec('PRAGMA journal_mode=WAL; CREATE TABLE t (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
    const pages = (db.prepare('PRAGMA page_count').raw().get() as [number])[0] + 4;
    db.pragma(`max_page_count = ${pages}`);
    engine = new SqliteEngine(db, { pageCacheCheckMs: 60_000 });
    return { engine, db, pages };
  }
  const big = (i: number) => `row ${i} `.repeat(400);
  const count = (store: SqliteEngine) => store.first('SELECT count(*) FROM t');

  it('fails a write with StorageFullError (507 INSUFFICIENT_STORAGE), leaves no transaction open, reads on, and writes again once there is room', async () => {
    const { engine: store, db, pages } = openLimited();
    let stored = 0;
    let failure: unknown;
    for (; stored < 1_000 && !failure; stored++) {
      try {
        store.run('INSERT INTO t (id, text) VALUES (?, ?)', [stored, big(stored)]);
      } catch (error) {
        failure = error;
        stored--;
      }
    }
    expect(failure).toBeInstanceOf(StorageFullError);
    expect(failure).toMatchObject({ code: 'INSUFFICIENT_STORAGE', status: 507, cause: { code: 'SQLITE_FULL' } });
    expect(failure).toBeInstanceOf(AppError);
    expect(count(store)).toBe(stored);

    // A batch fails the same way, and what it could not store is not left in an open transaction.
    expect(() =>
      store.batch(() => {
        for (let i = 0; i < 50; i++) store.run('INSERT INTO t (id, text) VALUES (?, ?)', [10_000 + i, big(i)]);
      }),
    ).toThrow(StorageFullError);
    expect(db.inTransaction).toBe(false);
    // So is a transaction.
    await expect(
      store.transaction(async () => {
        for (let i = 0; i < 50; i++) store.run('INSERT INTO t (id, text) VALUES (?, ?)', [20_000 + i, big(i)]);
      }),
    ).rejects.toBeInstanceOf(StorageFullError);
    expect(db.inTransaction).toBe(false);
    const before = count(store) as number;
    expect(store.values('SELECT id FROM t ORDER BY id LIMIT 2')).toEqual([0, 1]);

    db.pragma(`max_page_count = ${pages * 100}`);
    store.batch(() => {
      for (let i = 0; i < 50; i++) store.run('INSERT INTO t (id, text) VALUES (?, ?)', [30_000 + i, big(i)]);
    });
    expect(count(store)).toBe(before + 50);
  });
});
