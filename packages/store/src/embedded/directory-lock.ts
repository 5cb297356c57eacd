import { open, readFile, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { isProcessAlive } from '@vrs/kit';

/** Another live process owns the directory: opening it too would interleave two logs of the same collections. */
export class StoreLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly ownerPid: number,
  ) {
    super(
      `The data directory ${dir} is in use by another process (pid ${ownerPid}). Stop that instance, or give this one its own DATA_DIR.`,
    );
    this.name = 'StoreLockedError';
  }
}

interface LockRecord {
  pid: number;
  host: string;
  since: string;
}

/** Directories this process holds: a lock file naming our own pid is stale unless we hold it (a container restarted as pid 1). */
const heldHere = new Set<string>();

async function readRecord(file: string): Promise<LockRecord | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as LockRecord;
  } catch {
    // Missing, or torn by a crash between create and write: nobody can be shown to own it.
    return undefined;
  }
}

function ownedByAnother(record: LockRecord | undefined, dir: string): record is LockRecord {
  if (!record) return false;
  if (record.pid === process.pid) return heldHere.has(dir);
  return isProcessAlive(record.pid);
}

/**
 * Takes `dir/LOCK` for this process, or throws StoreLockedError naming the live owner. A lock left
 * by a process that died (kill -9, power loss) is taken over. Returns the release function.
 */
export async function lockDirectory(dir: string): Promise<() => Promise<void>> {
  const file = join(dir, 'LOCK');
  const record: LockRecord = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(JSON.stringify(record));
      await handle.close();
      heldHere.add(dir);
      return async () => {
        heldHere.delete(dir);
        await unlink(file).catch(() => undefined);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = await readRecord(file);
    if (ownedByAnother(owner, dir) || attempt > 0) throw new StoreLockedError(dir, owner?.pid ?? 0);
    await unlink(file).catch(() => undefined);
  }
}
