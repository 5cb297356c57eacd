// The WAL checkpointer's loop (wal-checkpointer.ts), on whichever thread serves it: the dedicated
// checkpoint worker, or another worker of the process that hosts it, the search engine's (ADR 0062).
// A connection of its own to each store file it is told to watch, and a PASSIVE checkpoint of that
// file once the WAL holds the threshold's worth of frames not yet copied (ADR 0069); one while the
// store holds its writes when the WAL grew long without starting over (ADR 0073). Plain
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
  const wal = walIndexOf(file);
  return wal === undefined ? undefined : pendingBytesOf(wal);
}

/** @param {{ frameBytes: number, mxFrame: number, nBackfill: number }} wal */
const pendingBytesOf = (wal) => (wal.mxFrame > wal.nBackfill ? (wal.mxFrame - wal.nBackfill) * wal.frameBytes : 0);

/**
 * The WAL's length and its part already copied, from the wal-index header: frames in it (mxFrame),
 * frames copied (nBackfill) and a frame's bytes; undefined where it cannot be read.
 *
 * @param {string} file
 * @returns {{ frameBytes: number, mxFrame: number, nBackfill: number } | undefined}
 */
function walIndexOf(file) {
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
  return { frameBytes, mxFrame: read32(16), nBackfill: read32(96) };
}

/**
 * Whether `file`'s WAL is long (twice the threshold's worth of frames) and holds frames no checkpoint
 * copied: a checkpoint that ends with frames added meanwhile lets no write start the WAL over, and a
 * store written without pause would grow it until its own connection checkpoints in the event loop
 * (ADR 0073).
 *
 * @param {ReturnType<typeof walIndexOf>} wal
 * @param {{ thresholdBytes: number }} entry
 */
function needsQuietCheckpoint(wal, entry) {
  return wal !== undefined && wal.mxFrame * wal.frameBytes >= 2 * entry.thresholdBytes && wal.mxFrame > wal.nBackfill;
}

/**
 * Whether `file` needs a checkpoint, its wal-index read as `wal`: the threshold's worth of frames not yet copied. The write that
 * starts the WAL over after a checkpoint syncs the WAL file in the store's own thread, the event
 * loop, and a busy disk once held that sync 100–200 ms; checkpointing every tick the WAL had changed
 * made that happen several times a second (ADR 0069). Where the wal-index cannot be read, the rule
 * before it: the WAL file at the threshold and changed since the last look.
 *
 * @param {string} file
 * @param {ReturnType<typeof walIndexOf>} wal
 * @param {{ thresholdBytes: number, checkedAt: number }} entry
 */
function isDue(file, wal, entry) {
  if (wal !== undefined) return pendingBytesOf(wal) >= entry.thresholdBytes;
  const walFile = statSync(`${file}-wal`, { throwIfNoEntry: false });
  if (!walFile || walFile.size < entry.thresholdBytes || walFile.mtimeMs === entry.checkedAt) return false;
  entry.checkedAt = walFile.mtimeMs;
  return true;
}

/**
 * Serves the checkpointer's messages on `port` (`watch`, `forget` answered by `forgotten`, `held`
 * answered by `checkpointed`, `leave`), and asks it for a quiet checkpoint (`quiet`, ADR 0073).
 * Answers the function that stops it: it closes every connection, then the port.
 *
 * @param {import('./wal-checkpointer').CheckpointChannel} channel
 */
export function serveCheckpoints({ port, intervalMs }) {
  /** @type {Map<string, { db: Database.Database, thresholdBytes: number, checkedAt: number, quietAsked: boolean }>} */
  const watched = new Map();
  const timer = setInterval(() => {
    for (const [file, entry] of watched) {
      try {
        let wal = walIndexOf(file);
        if (isDue(file, wal, entry)) {
          // PASSIVE copies what it can without waiting for the writer or any reader: the store's own
          // connection never waits on this one. The next write starts the WAL over once all is copied.
          entry.db.pragma('wal_checkpoint(PASSIVE)');
          wal = walIndexOf(file);
        }
        if (!entry.quietAsked && needsQuietCheckpoint(wal, entry)) {
          // The store holds its writes, answers `held`, and this thread checkpoints then.
          entry.quietAsked = true;
          port.postMessage({ type: 'quiet', file });
        }
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
        watched.set(message.file, {
          db: new Database(message.file),
          thresholdBytes: message.thresholdBytes,
          checkedAt: 0,
          quietAsked: false,
        });
      } catch {
        // Left to the store's own connection (past its cap), rather than ending this thread.
      }
    } else if (message.type === 'forget') {
      watched.get(message.file)?.db.close();
      watched.delete(message.file);
      port.postMessage({ type: 'forgotten', id: message.id });
    } else if (message.type === 'held') {
      const entry = watched.get(message.file);
      if (entry) {
        entry.quietAsked = false;
        try {
          // No writer adds frames now: everything is copied, and the store's next write starts the WAL over.
          entry.db.pragma('wal_checkpoint(PASSIVE)');
        } catch {
          // As in the loop: the next tick looks again.
        }
      }
      // Answered whatever happened: the store waits for this.
      port.postMessage({ type: 'checkpointed', file: message.file });
    } else if (message.type === 'leave') {
      stop();
    }
  });
  return stop;
}
