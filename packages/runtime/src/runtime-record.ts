import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServiceName } from '@vrs/contracts';
import { isProcessAlive } from '@vrs/kit';

/**
 * What a running `npm start` tells the tools of the same checkout: where its hosted services answer
 * internal tRPC calls (their ports are chosen free at start) and which bus namespace it uses.
 * Lives at DATA_DIR/runtime.json while the instance runs.
 */
export interface RuntimeRecord {
  pid: number;
  startedAt: string;
  gatewayUrl: string;
  natsNamespace: string;
  services: Partial<Record<ServiceName, string>>;
}

export const runtimeRecordFileOf = (dataDir: string) => join(dataDir, 'runtime.json');

export async function writeRuntimeRecord(dataDir: string, record: RuntimeRecord): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  // Written aside and renamed, so a reader never sees half a record.
  const partial = `${runtimeRecordFileOf(dataDir)}.${process.pid}`;
  await writeFile(partial, `${JSON.stringify(record, null, 2)}\n`);
  await rename(partial, runtimeRecordFileOf(dataDir));
}

/** Removes the record if it is this process's (a newer instance may have replaced it). */
export async function removeRuntimeRecord(dataDir: string): Promise<void> {
  const record = await readRecordFile(dataDir);
  if (record?.pid === process.pid) await unlink(runtimeRecordFileOf(dataDir)).catch(() => undefined);
}

async function readRecordFile(dataDir: string): Promise<RuntimeRecord | undefined> {
  try {
    return JSON.parse(await readFile(runtimeRecordFileOf(dataDir), 'utf8')) as RuntimeRecord;
  } catch {
    return undefined;
  }
}

/** The record of the instance running on `dataDir`; none when nothing runs there (or it died without removing it). */
export async function readRuntimeRecord(dataDir: string): Promise<RuntimeRecord | undefined> {
  const record = await readRecordFile(dataDir);
  return record && isProcessAlive(record.pid) ? record : undefined;
}
