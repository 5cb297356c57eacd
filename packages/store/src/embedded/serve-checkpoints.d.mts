// Types of serve-checkpoints.mjs, which stays plain JavaScript so the dedicated worker runs it without a loader.
import type { CheckpointChannel } from './wal-checkpointer';

export function serveCheckpoints(channel: CheckpointChannel): () => void;

/** Bytes of WAL frames not yet copied into the database, read from the wal-index (`<file>-shm`); undefined where it cannot be read. */
export function pendingWalBytes(file: string): number | undefined;
