import { Worker } from 'node:worker_threads';

/**
 * Checkpoints of the embedded stores' WAL files on a worker thread of the process, not in the writes
 * of the event loop (ADR 0044). SQLite's default has the write that takes the WAL past 1,000 pages
 * copy it into the database there and then: ~30% of the store's write time, and a stall of the
 * event loop as long as the copy. Stores open with a high `wal_autocheckpoint` (`fallbackPages`),
 * so their own connection only checkpoints if this one falls that far behind.
 */
export const checkpointSettings = {
  /** Pages of WAL past which a store's own connection checkpoints after all (64 MiB of 4 KiB pages). */
  fallbackPages: 16_384,
  /** How often the worker looks at each WAL file. */
  intervalMs: 100,
};

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, () => void>();

function checkpointWorker(): Worker {
  if (worker) return worker;
  const started = new Worker(new URL('./checkpoint-worker.mjs', import.meta.url), {
    workerData: { intervalMs: checkpointSettings.intervalMs },
  });
  started.on('message', (message: { type: string; id: number }) => {
    if (message.type === 'forgotten') {
      pending.get(message.id)?.();
      pending.delete(message.id);
    }
  });
  started.on('error', () => {
    // Without it, stores checkpoint themselves past `fallbackPages`; a later store starts a new one.
    worker = undefined;
    for (const resolve of pending.values()) resolve();
    pending.clear();
  });
  // Never what keeps a process alive; stores closing tell it first (`forget`). After the listeners:
  // adding a 'message' listener refs the worker's port again.
  started.unref();
  worker = started;
  return started;
}

/**
 * Has the worker checkpoint `file` (a store's SQLite database) whenever its WAL changed and the WAL
 * file is at least `thresholdBytes`. Answers the function that stops it, resolved once the worker
 * has closed its connection to the file.
 */
export function checkpointInBackground(file: string, thresholdBytes = 4 * 1024 * 1024): () => Promise<void> {
  const thread = checkpointWorker();
  thread.postMessage({ type: 'watch', file, thresholdBytes });
  return () =>
    new Promise<void>((resolve) => {
      if (worker !== thread) return resolve();
      const id = nextId++;
      // A worker that no longer answers must not hold a store's close up.
      const timer = setTimeout(() => {
        pending.delete(id);
        resolve();
      }, 2_000);
      pending.set(id, () => {
        clearTimeout(timer);
        resolve();
      });
      thread.postMessage({ type: 'forget', file, id });
    });
}
