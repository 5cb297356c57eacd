// Types of serve-checkpoints.mjs, which stays plain JavaScript so the dedicated worker runs it without a loader.
import type { CheckpointChannel } from './wal-checkpointer';

export function serveCheckpoints(channel: CheckpointChannel): () => void;
