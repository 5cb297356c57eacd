// The WAL checkpointer's loop (wal-checkpointer.ts), on whichever thread serves it: the dedicated
// checkpoint worker, or another worker of the process that hosts it, the search engine's (ADR 0062).
// A connection of its own to each store file it is told to watch, and a PASSIVE checkpoint of that
// file each tick its WAL has changed, once the WAL file has reached the threshold (the file keeps its
// size when SQLite starts it over, so past that point the change, not the size, says there is
// something to copy). Plain JavaScript with no imports of ours, so source runs (tsx, vitest) and the
// bundles load the same file.
import { statSync } from 'node:fs';
import Database from 'libsql';

/**
 * Serves the checkpointer's messages on `port` (`watch`, `forget` answered by `forgotten`, `leave`).
 * Answers the function that stops it: it closes every connection, then the port.
 *
 * @param {import('./wal-checkpointer').CheckpointChannel} channel
 */
export function serveCheckpoints({ port, intervalMs }) {
  /** @type {Map<string, { db: Database.Database, thresholdBytes: number, checkedAt: number }>} */
  const watched = new Map();
  const timer = setInterval(() => {
    for (const [file, entry] of watched) {
      try {
        const wal = statSync(`${file}-wal`, { throwIfNoEntry: false });
        if (!wal || wal.size < entry.thresholdBytes || wal.mtimeMs === entry.checkedAt) continue;
        // PASSIVE copies what it can without waiting for the writer or any reader: the store's own
        // connection never waits on this one. The next write starts the WAL over once all is copied.
        entry.db.pragma('wal_checkpoint(PASSIVE)');
        entry.checkedAt = wal.mtimeMs;
      } catch {
        // Busy, closing or unreadable: the next tick tries again; the store's connection checkpoints
        // itself past its cap. Nothing is thrown out of here: the thread may be the search engine's.
      }
    }
  }, intervalMs);
  // The port's listener is what keeps the thread alive, so closing it lets a dedicated worker end.
  timer.unref();

  function stop() {
    clearInterval(timer);
    for (const entry of watched.values()) entry.db.close();
    watched.clear();
    port.close();
  }
  port.on('message', (message) => {
    if (message.type === 'watch') {
      watched.get(message.file)?.db.close();
      watched.delete(message.file);
      try {
        watched.set(message.file, { db: new Database(message.file), thresholdBytes: message.thresholdBytes, checkedAt: 0 });
      } catch {
        // Left to the store's own connection (past its cap), rather than ending this thread.
      }
    } else if (message.type === 'forget') {
      watched.get(message.file)?.db.close();
      watched.delete(message.file);
      port.postMessage({ type: 'forgotten', id: message.id });
    } else if (message.type === 'leave') {
      stop();
    }
  });
  return stop;
}
