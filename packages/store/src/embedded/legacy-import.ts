import { mkdir, readdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { IndexSpec, Store, StoreDocument } from '../port';

/** One line of the file-based adapter's snapshot or log (ADR 0008): header, put, delete, index. */
type LegacyRecord = { g: number } | { p: StoreDocument } | { d: string } | { x: IndexSpec };

const LEGACY_FILE = /^(.+)\.(log|snapshot)$/;
export const LEGACY_FOLDER = 'legacy-log-format';

/**
 * Moves data left by the file-based embedded adapter (a `DATA_DIR` from before ADR 0022) into the
 * SQLite store, once: each collection's snapshot, then its log when of the same generation (a torn
 * last line dropped, as that adapter did), inserted in one transaction with its unique indexes
 * declared again. The old files are then moved to `legacy-log-format/`, never deleted. A collection
 * whose table already holds documents was imported by an earlier, interrupted run and is skipped.
 */
export async function importLegacyCollections(dir: string, store: Store): Promise<string[]> {
  const files = (await readdir(dir)).filter((file) => LEGACY_FILE.test(file));
  const names = new Set(files.flatMap((file) => LEGACY_FILE.exec(file)?.[1] ?? []));
  for (const name of names) {
    const snapshot = await readRecords(join(dir, `${name}.snapshot`));
    const log = await readRecords(join(dir, `${name}.log`));
    const generation = generationOf(snapshot) ?? 0;
    const docs = new Map<string, StoreDocument>();
    const indexes = new Map<string, IndexSpec>();
    for (const record of [...snapshot, ...((generationOf(log) ?? generation) === generation ? log : [])]) {
      if ('p' in record) docs.set(record.p._id, record.p);
      else if ('d' in record) docs.delete(record.d);
      else if ('x' in record) indexes.set(JSON.stringify(record.x.key) + (record.x.name ?? ''), record.x);
    }
    const collection = store.collection(name);
    if ((await collection.countDocuments()) === 0 && docs.size > 0) {
      await store.withTransaction((tx) => tx.collection(name).insertMany(Array.from(docs.values())));
    }
    await collection.createIndexes(Array.from(indexes.values()));
  }
  if (files.length) {
    await mkdir(join(dir, LEGACY_FOLDER), { recursive: true });
    for (const file of files) await rename(join(dir, file), join(dir, LEGACY_FOLDER, file));
  }
  return Array.from(names);
}

function generationOf(records: LegacyRecord[]): number | undefined {
  const first = records[0];
  return first && 'g' in first ? first.g : undefined;
}

async function readRecords(path: string): Promise<LegacyRecord[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const lines = text.split('\n');
  // What follows the last newline is a write torn by a crash.
  lines.pop();
  return lines.map((line, i) => {
    try {
      return JSON.parse(line) as LegacyRecord;
    } catch {
      throw new Error(`${path}: unreadable record on line ${i + 1}`);
    }
  });
}
