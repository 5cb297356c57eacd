import { AppError } from '@vrs/kit';

/** A write clashed with `_id` or a unique index; same code as MongoDB's E11000. */
export class DuplicateKeyError extends Error {
  readonly code = 11000;

  constructor(
    message: string,
    readonly keyPattern?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DuplicateKeyError';
  }
}

/**
 * A write the disk has no room for (SQLite's SQLITE_FULL, MongoDB's OutOfDiskSpace): nothing of it
 * was stored. An AppError, so every caller answers 507 INSUFFICIENT_STORAGE, not a 500 (ADR 0088);
 * reads go on working.
 */
export class StorageFullError extends AppError {
  constructor(cause: unknown) {
    super('INSUFFICIENT_STORAGE');
    this.name = 'StorageFullError';
    this.cause = cause;
  }
}

/** SQLite's out-of-space failure (a full disk, or `max_page_count` reached) as a StorageFullError; any other error as it is. */
export function sqliteStorageError(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code === 'SQLITE_FULL' ? new StorageFullError(error) : error;
}
