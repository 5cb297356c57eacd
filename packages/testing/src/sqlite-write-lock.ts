import { once } from 'node:events';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const libsqlPath = createRequire(import.meta.url).resolve('libsql');

/**
 * Another connection to the SQLite `file` holding its write lock for `holdMs`, from a thread of its
 * own (a connection of the test's thread could not let go while that thread waits on it). Answers
 * once the lock is held; `released` settles when the thread has let it go and ended.
 */
export async function holdSqliteWriteLock(file: string, holdMs: number): Promise<{ released: Promise<unknown> }> {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
    const Database = require(workerData.libsqlPath);
    const db = new Database(workerData.file);
    db.exec('BEGIN IMMEDIATE');
    parentPort.postMessage('locked');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.holdMs);
    db.exec('COMMIT');
    db.close();`,
    { eval: true, workerData: { file, holdMs, libsqlPath } },
  );
  const [message] = await Promise.race([once(worker, 'message'), once(worker, 'error').then(([error]) => Promise.reject(error))]);
  if (message !== 'locked') throw new Error(`the lock holder said ${String(message)}`);
  return { released: once(worker, 'exit') };
}
