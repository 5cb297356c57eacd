import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';

/**
 * Checkpoints of the embedded stores' WAL files on a worker thread of the process, not in the writes
 * of the event loop (ADR 0044). SQLite's default has the write that takes the WAL past 1,000 pages
 * copy it into the database there and then: ~30% of the store's write time, and a stall of the
 * event loop as long as the copy. Stores open with a high `wal_autocheckpoint` (`fallbackPages`),
 * so their own connection only checkpoints if this one falls that far behind.
 *
 * One thread serves them at a time (serve-checkpoints.mjs, over a port of its own): a worker that
 * another part of the process already runs, if it hosts them (`hostCheckpoints`: the search
 * engine's, ADR 0062), which saves a worker's isolate; otherwise a dedicated worker.
 */
export const checkpointSettings = {
  /** Pages of WAL past which a store's own connection checkpoints after all (64 MiB of 4 KiB pages). */
  fallbackPages: 16_384,
  /** How often the serving thread looks at each WAL file. */
  intervalMs: 100,
  /**
   * How long after a host went away a dedicated worker takes its files up: at shutdown the stores
   * close moments after the search engine, and need none.
   */
  fallbackDelayMs: 1_000,
  /** The longest a store holds its operations for a quiet checkpoint that the serving thread has not finished (ADR 0073). */
  quietMs: 250,
};

/** Holds a store's operations while `during` runs (`SqliteEngine.hold`). */
export type HoldStore = (during: () => Promise<void>) => Promise<void>;

/** What a thread needs to serve the checkpoints (`serveCheckpoints`): its port is transferred to it. */
export interface CheckpointChannel {
  port: MessagePort;
  intervalMs: number;
}

interface Server {
  port: MessagePort;
  /** Its `forget`s not answered yet. */
  forgetting: Map<number, () => void>;
  /** Files held for a quiet checkpoint, with what ends the hold. */
  quiet: Map<string, () => void>;
}

let server: Server | undefined;
/** Every file watched, with its threshold: what a thread taking the checkpoints over is told to watch. */
const watched = new Map<string, number>();
/** How each watched file's store holds its operations, for a quiet checkpoint. */
const holders = new Map<string, HoldStore>();
let nextId = 0;

/**
 * Makes the thread at the other end of `port` the one that checkpoints; the previous one leaves.
 * `hosted`: another worker's (`hostCheckpoints`), not the dedicated one.
 */
function serveOn(port: MessagePort, hosted: boolean): void {
  const next: Server = { port, forgetting: new Map(), quiet: new Map() };
  port.on('message', (message: { type: string; id: number; file: string }) => {
    if (message.type === 'forgotten') {
      next.forgetting.get(message.id)?.();
      next.forgetting.delete(message.id);
    } else if (message.type === 'quiet') {
      holdForQuietCheckpoint(next, message.file);
    } else if (message.type === 'checkpointed') {
      next.quiet.get(message.file)?.();
    }
  });
  port.on('close', () => {
    // It left, ended or failed: it holds no file any more.
    for (const resolve of next.forgetting.values()) resolve();
    next.forgetting.clear();
    for (const end of [...next.quiet.values()]) end();
    if (server !== next) return;
    server = undefined;
    // A failed dedicated worker is not restarted here: stores checkpoint themselves past
    // `fallbackPages` until the next one opens and starts a worker.
    if (hosted) setTimeout(fallBack, checkpointSettings.fallbackDelayMs).unref();
  });
  // Never what keeps a process alive; stores closing tell it first (`forget`). After the listeners:
  // adding a 'message' listener refs the port again.
  port.unref();
  server?.port.postMessage({ type: 'leave' });
  server = next;
  for (const [file, thresholdBytes] of watched) port.postMessage({ type: 'watch', file, thresholdBytes });
}

/**
 * The serving thread found `file`'s WAL long and its checkpoint unfinished: the store writes without
 * pause, so every checkpoint ends with frames added meanwhile, the WAL never starts over, and at
 * `fallbackPages` the store's own connection checkpoints in the event loop (ADR 0073). The store
 * holds its operations (they wait, the event loop does not) until that thread has checkpointed with
 * no writer beside it, or `quietMs` passed. It is answered either way, so it may ask again.
 */
function holdForQuietCheckpoint(current: Server, file: string): void {
  const hold = holders.get(file);
  if (!hold || current.quiet.has(file)) {
    current.port.postMessage({ type: 'held', file });
    return;
  }
  let answered = false;
  void hold(
    () =>
      new Promise<void>((resolve) => {
        const end = () => {
          clearTimeout(timer);
          current.quiet.delete(file);
          resolve();
        };
        const timer = setTimeout(end, checkpointSettings.quietMs);
        current.quiet.set(file, end);
        answered = true;
        current.port.postMessage({ type: 'held', file });
      }),
  )
    .catch(() => undefined)
    .finally(() => {
      // Closed, or a stalled transaction never let the hold begin: answered all the same, unheld.
      if (!answered) current.port.postMessage({ type: 'held', file });
    });
}

/** After a host went away: a dedicated worker for the files still watched, unless another thread took them. */
function fallBack(): void {
  if (!server && watched.size > 0) startWorker();
}

function startWorker(): void {
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(new URL('./checkpoint-worker.mjs', import.meta.url), {
    workerData: { port: port2, intervalMs: checkpointSettings.intervalMs } satisfies CheckpointChannel,
    transferList: [port2],
  });
  // Its port's 'close' says it is gone; unheard, its failure would be thrown in this thread.
  worker.on('error', () => undefined);
  worker.unref();
  serveOn(port1, false);
}

/**
 * Moves the checkpoints to another worker of the process, which serves them with `serveCheckpoints`
 * on the channel answered (its port transferred to it): the files watched now and later, until that
 * port closes. A dedicated worker running leaves (closes its connections and ends). If the host goes
 * away while stores are open, a dedicated worker takes them up after `fallbackDelayMs`.
 */
export function hostCheckpoints(): CheckpointChannel {
  const { port1, port2 } = new MessageChannel();
  serveOn(port1, true);
  return { port: port2, intervalMs: checkpointSettings.intervalMs };
}

/**
 * Has the serving thread checkpoint `file` (a store's SQLite database) whenever its WAL holds
 * `thresholdBytes` of frames not yet copied into it (ADR 0069), and, through `hold`, once the store's
 * operations wait when the WAL has grown long without starting over (ADR 0073). Answers the function
 * that stops it, resolved once that thread has closed its connection to the file.
 */
export function checkpointInBackground(file: string, thresholdBytes = 4 * 1024 * 1024, hold?: HoldStore): () => Promise<void> {
  watched.set(file, thresholdBytes);
  if (hold) holders.set(file, hold);
  if (server) server.port.postMessage({ type: 'watch', file, thresholdBytes });
  else startWorker();
  return () =>
    new Promise<void>((resolve) => {
      watched.delete(file);
      holders.delete(file);
      const current = server;
      if (!current) return resolve();
      const id = nextId++;
      // A thread that no longer answers must not hold a store's close up.
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
