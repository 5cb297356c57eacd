import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';

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
  /** How often the serving thread looks at each WAL file. */
  intervalMs: 100,
};

/** What a thread needs to serve the checkpoints (`serveCheckpoints`): its port is transferred to it. */
export interface CheckpointChannel {
  port: MessagePort;
  intervalMs: number;
}

interface Server {
  port: MessagePort;
  /** Its `forget`s not answered yet. */
  forgetting: Map<number, () => void>;
}

let server: Server | undefined;
let nextId = 0;

function startWorker(): Server {
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(new URL('./checkpoint-worker.mjs', import.meta.url), {
    workerData: { port: port2, intervalMs: checkpointSettings.intervalMs } satisfies CheckpointChannel,
    transferList: [port2],
  });
  // Its port's 'close' says it is gone; unheard, its failure would be thrown in this thread.
  worker.on('error', () => undefined);
  worker.unref();
  const started: Server = { port: port1, forgetting: new Map() };
  port1.on('message', (message: { type: string; id: number }) => {
    if (message.type !== 'forgotten') return;
    started.forgetting.get(message.id)?.();
    started.forgetting.delete(message.id);
  });
  port1.on('close', () => {
    // It failed: it holds no file any more. Stores checkpoint themselves past `fallbackPages`; a
    // later store starts a new one.
    for (const resolve of started.forgetting.values()) resolve();
    started.forgetting.clear();
    if (server === started) server = undefined;
  });
  // Never what keeps a process alive; stores closing tell it first (`forget`). After the listeners:
  // adding a 'message' listener refs the port again.
  port1.unref();
  server = started;
  return started;
}

/**
 * Has the worker checkpoint `file` (a store's SQLite database) whenever its WAL changed and the WAL
 * file is at least `thresholdBytes`. Answers the function that stops it, resolved once the worker
 * has closed its connection to the file.
 */
export function checkpointInBackground(file: string, thresholdBytes = 4 * 1024 * 1024): () => Promise<void> {
  const current = server ?? startWorker();
  current.port.postMessage({ type: 'watch', file, thresholdBytes });
  return () =>
    new Promise<void>((resolve) => {
      if (server !== current) return resolve();
      const id = nextId++;
      // A worker that no longer answers must not hold a store's close up.
      const timer = setTimeout(() => {
        current.forgetting.delete(id);
        resolve();
      }, 2_000);
      current.forgetting.set(id, () => {
        clearTimeout(timer);
        resolve();
      });
      current.port.postMessage({ type: 'forget', file, id });
    });
}
