// The dedicated worker of the WAL checkpointer (wal-checkpointer.ts), for a process where no other
// worker hosts the checkpoints. It ends by itself once told to leave. Plain JavaScript, so source
// runs (tsx, vitest) and the bundles (dist/checkpoint-worker.mjs) start the same file.
import { workerData } from 'node:worker_threads';
import { serveCheckpoints } from './serve-checkpoints.mjs';

serveCheckpoints(workerData);
