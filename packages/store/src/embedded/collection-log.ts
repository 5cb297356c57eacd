import { open, readFile, rename, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { IndexSpec, StoreDocument } from '../port';

/** One line of a snapshot or log: put a whole document, delete by `_id`, or create an index. */
export type LogRecord = { p: StoreDocument } | { d: string } | { x: IndexSpec };

export interface CollectionLogOptions {
  /** Compact once the log is larger than this and than the snapshot (so compaction stays amortised). */
  compactAfterBytes: number;
}

/** Header line of both files: which compaction generation they belong to. */
type Header = { g: number };

const SNAPSHOT_CHUNK_CHARS = 1 << 20;

/**
 * Durable storage of one collection: `<name>.snapshot` (the whole collection at the last
 * compaction) plus `<name>.log` (JSON lines appended since). Writes are group-committed: every
 * write of the same tick shares one `write` and one `fdatasync`, and its promise resolves only
 * after that sync, so an acknowledged write survives `kill -9` and power loss.
 *
 * Compaction writes a new snapshot (temp file, fsync, rename, fsync dir) and then empties the log.
 * Both files start with a generation header: a crash between the rename and the truncation leaves
 * a log older than the snapshot, which loading then ignores instead of replaying stale records
 * over newer state.
 */
export class CollectionLog {
  readonly #dir: string;
  readonly #logPath: string;
  readonly #snapshotPath: string;
  readonly #options: CollectionLogOptions;
  /** Captures the collection as records, synchronously, for a snapshot. */
  readonly #capture: () => LogRecord[];
  #generation = 0;
  #handle: FileHandle | undefined;
  #logBytes = 0;
  #snapshotBytes = 0;
  #pending = '';
  #batch: Batch | undefined;
  #draining: Promise<void> | undefined;
  #failure: unknown;
  #closed = false;

  constructor(dir: string, name: string, options: CollectionLogOptions, capture: () => LogRecord[]) {
    this.#dir = dir;
    this.#logPath = join(dir, `${name}.log`);
    this.#snapshotPath = join(dir, `${name}.snapshot`);
    this.#options = options;
    this.#capture = capture;
  }

  /** Replays snapshot then log into `apply`, dropping a torn last log line left by a crash. */
  async load(apply: (record: LogRecord) => void): Promise<void> {
    await rm(`${this.#snapshotPath}.tmp`, { force: true });
    const snapshot = await readRecords(this.#snapshotPath);
    if (snapshot.tornBytes) throw new Error(`${this.#snapshotPath} is truncated (snapshots are renamed into place whole)`);
    this.#generation = headerOf(snapshot.records)?.g ?? 0;
    this.#snapshotBytes = snapshot.completeBytes;

    const log = await readRecords(this.#logPath);
    const logGeneration = headerOf(log.records)?.g ?? this.#generation;
    if (logGeneration > this.#generation) throw new Error(`${this.#logPath} is newer than its snapshot`);
    const logIsCurrent = logGeneration === this.#generation;
    for (const record of snapshot.records) if (!('g' in record)) apply(record);
    if (logIsCurrent) for (const record of log.records) if (!('g' in record)) apply(record);
    this.#logBytes = logIsCurrent ? log.completeBytes : 0;
    if (this.#logBytes < log.completeBytes + log.tornBytes) await truncateFile(this.#logPath, this.#logBytes);
  }

  /** Throws when writes are refused; call it before changing memory, so a refused write leaves no trace. */
  assertWritable(): void {
    if (this.#failure !== undefined) throw this.#failure;
    if (this.#closed) throw new Error('the store is closed');
  }

  /** Appends complete lines (after assertWritable() in the same tick); resolves once they are on disk. */
  write(lines: string): Promise<void> {
    this.#pending += lines;
    this.#batch ??= newBatch();
    this.#draining ??= this.#drain();
    return this.#batch.promise;
  }

  /** Why this log refuses writes, if it does. */
  get failure(): unknown {
    return this.#failure;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#draining;
    await this.#handle?.close();
    this.#handle = undefined;
  }

  async #drain(): Promise<void> {
    // Let every write of the current tick join the batch.
    await new Promise((resolve) => setImmediate(resolve));
    try {
      while (this.#batch) {
        const batch = this.#batch;
        const lines = this.#pending;
        this.#batch = undefined;
        this.#pending = '';
        try {
          await this.#append(lines);
          batch.resolve();
          if (this.#logBytes > Math.max(this.#options.compactAfterBytes, this.#snapshotBytes)) await this.#compact();
        } catch (error) {
          this.#fail(error, batch);
        }
      }
    } finally {
      this.#draining = undefined;
    }
  }

  /**
   * Memory is now ahead of the disk: refuse further writes rather than acknowledge writes whose
   * predecessors may be lost (a failed fsync cannot be retried safely either).
   */
  #fail(error: unknown, batch: Batch): void {
    this.#failure = error;
    batch.reject(error);
    this.#batch?.reject(error);
    this.#batch = undefined;
    this.#pending = '';
  }

  async #append(lines: string): Promise<void> {
    if (!this.#handle) {
      this.#handle = await open(this.#logPath, 'a');
      await syncDirectory(this.#dir);
    }
    const header = this.#logBytes === 0 ? `${JSON.stringify({ g: this.#generation } satisfies Header)}\n` : '';
    this.#logBytes += await writeFully(this.#handle, header + lines);
    await this.#handle.datasync();
  }

  async #compact(): Promise<void> {
    const generation = this.#generation + 1;
    const records: Array<LogRecord | Header> = [{ g: generation }, ...this.#capture()];
    const temp = `${this.#snapshotPath}.tmp`;
    const out = await open(temp, 'w');
    let bytes = 0;
    try {
      let chunk = '';
      for (const record of records) {
        chunk += `${JSON.stringify(record)}\n`;
        if (chunk.length >= SNAPSHOT_CHUNK_CHARS) {
          bytes += await writeFully(out, chunk);
          chunk = '';
        }
      }
      bytes += await writeFully(out, chunk);
      await out.sync();
    } finally {
      await out.close();
    }
    await rename(temp, this.#snapshotPath);
    await syncDirectory(this.#dir);
    this.#generation = generation;
    this.#snapshotBytes = bytes;
    const handle = this.#handle!;
    await handle.truncate(0);
    await handle.datasync();
    this.#logBytes = 0;
  }
}

interface Batch {
  promise: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

function newBatch(): Batch {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function headerOf(records: Array<LogRecord | Header>): Header | undefined {
  const first = records[0];
  return first && 'g' in first ? first : undefined;
}

/** Parses complete lines; bytes after the last newline are a torn write and are reported, not parsed. */
async function readRecords(path: string): Promise<{ records: Array<LogRecord | Header>; completeBytes: number; tornBytes: number }> {
  let buffer: Buffer;
  try {
    buffer = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], completeBytes: 0, tornBytes: 0 };
    throw error;
  }
  const records: Array<LogRecord | Header> = [];
  let start = 0;
  for (let end = buffer.indexOf(10, start); end !== -1; end = buffer.indexOf(10, start)) {
    try {
      records.push(JSON.parse(buffer.toString('utf8', start, end)));
    } catch {
      throw new Error(`${path}: unreadable record at byte ${start}`);
    }
    start = end + 1;
  }
  return { records, completeBytes: start, tornBytes: buffer.length - start };
}

async function writeFully(handle: FileHandle, text: string): Promise<number> {
  const buffer = Buffer.from(text);
  for (let offset = 0; offset < buffer.length; ) {
    offset += (await handle.write(buffer, offset)).bytesWritten;
  }
  return buffer.length;
}

async function truncateFile(path: string, bytes: number): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.truncate(bytes);
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/** Makes a created or renamed directory entry durable. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
