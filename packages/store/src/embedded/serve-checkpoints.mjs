// The WAL checkpointer's loop (wal-checkpointer.ts), on whichever thread serves it: the dedicated
// checkpoint worker, or another worker of the process that hosts it, the search engine's (ADR 0062).
// A connection of its own to each store file it is told to watch, and a PASSIVE checkpoint of that
// file once the WAL holds the threshold's worth of frames not yet copied (ADR 0069). Plain
// JavaScript with no imports of ours, so source runs (tsx, vitest) and the bundles load the same file.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { endianness } from 'node:os';
import Database from 'libsql';

/** What the wal-index header of SQLite 3.7.0 and later says in its version field. */
const walIndexVersion = 3007000;
/** Both copies of the wal-index header (48 bytes each), then the checkpoint info, whose first field is nBackfill. */
const walIndexReadBytes = 100;
const walFrameHeaderBytes = 24;
const shmHeader = Buffer.alloc(walIndexReadBytes);
// The wal-index is shared memory in the machine's own byte order, never moved between machines.
const littleEndian = endianness() === 'LE';
const read32 = (offset) => (littleEndian ? shmHeader.readUInt32LE(offset) : shmHeader.readUInt32BE(offset));

/**
 * Bytes of WAL frames that no checkpoint has copied into the database yet (mxFrame − nBackfill,
 * from the wal-index in `<file>-shm`, which every connection maps), or undefined where it cannot
 * be read: no such file, a header other than SQLite's, or its two copies differing mid-write.
 * After a checkpoint copied everything this is 0 until the next write, which starts the WAL over.
 *
 * @param {string} file
 * @returns {number | undefined}
 */
export function pendingWalBytes(file) {
  let fd;
  try {
    fd = openSync(`${file}-shm`, 'r');
    if (readSync(fd, shmHeader, 0, walIndexReadBytes, 0) < walIndexReadBytes) return undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  if (read32(0) !== walIndexVersion || shmHeader[12] !== 1 || shmHeader.compare(shmHeader, 0, 48, 48, 96) !== 0) return undefined;
  const pageSize = littleEndian ? shmHeader.readUInt16LE(14) : shmHeader.readUInt16BE(14);
  const frameBytes = (pageSize === 1 ? 65_536 : pageSize) + walFrameHeaderBytes;
  const mxFrame = read32(16);
  const nBackfill = read32(96);
  return mxFrame > nBackfill ? (mxFrame - nBackfill) * frameBytes : 0;
}

/**
 * Whether `file` needs a checkpoint: the threshold's worth of frames not yet copied. The write that
 * starts the WAL over after a checkpoint syncs the WAL file in the store's own thread, the event
 * loop, and a busy disk once held that sync 100–200 ms; checkpointing every tick the WAL had changed
 * made that happen several times a second (ADR 0069). Where the wal-index cannot be read, the rule
 * before it: the WAL file at the threshold and changed since the last look.
 *
 * @param {string} file
 * @param {{ thresholdBytes: number, checkedAt: number }} entry
 */
function isDue(file, entry) {
  const pending = pendingWalBytes(file);
  if (pending !== undefined) return pending >= entry.thresholdBytes;
  const wal = statSync(`${file}-wal`, { throwIfNoEntry: false });
  if (!wal || wal.size < entry.thresholdBytes || wal.mtimeMs === entry.checkedAt) return false;
  entry.checkedAt = wal.mtimeMs;
  return true;
}

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
        if (!isDue(file, entry)) continue;
        // PASSIVE copies what it can without waiting for the writer or any reader: the store's own
        // connection never waits on this one. The next write starts the WAL over once all is copied.
        entry.db.pragma('wal_checkpoint(PASSIVE)');
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
