import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { NatsConnection } from '@nats-io/transport-node';
import { JetStreamApiCodes, JetStreamApiError, jetstreamManager } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { kvBucketNameFor } from './names';
import { trackConnection } from './connection-state';
import { assertReplicas, awaitStreamCopies, connectForever, createConcurrently } from './nats-servers';
import { currentWindow, nextCount, type WindowCount, type WindowCounter, type WindowState } from './window-counter';

/** The changes to one key waiting for the next compare-and-set, with their callers. */
interface CounterQueue {
  pending?: { deltas: number[]; waiters: Array<{ resolve: (c: WindowCount) => void; reject: (e: unknown) => void }> };
}

export type KvWindowCounterOptions = ({ natsUrl: string } | { connection: NatsConnection }) & {
  namespace: string;
  /** Bucket name after the namespace: letters, digits and `-`. */
  bucket?: string;
  /** Longest window the counter will be asked for; the bucket's TTL, so stale windows expire on their own. */
  maxWindowMs?: number;
  /** Copies of the bucket's stream (NATS_STREAM_REPLICAS); an existing bucket with another count is updated. */
  replicas?: number;
};

const defaultBucket = 'window-counters';
const defaultMaxWindowMs = 60 * 60 * 1000;
/** Attempts of one compare-and-set before giving up; only reached under extreme contention on one key. */
const maxAttempts = 100;

function isRevisionConflict(error: unknown): boolean {
  return (
    error instanceof JetStreamApiError &&
    (error.code === JetStreamApiCodes.StreamWrongLastSequence || error.code === JetStreamApiCodes.StreamWrongLastSequenceUnknown)
  );
}

const hashedKeys = new Map<string, string>();

/**
 * Any caller key (IPs, account ids, ...) becomes a valid, fixed-length KV key. The same few keys
 * recur on every request, so their hashes are remembered (a bounded map, oldest dropped first).
 */
function kvKey(key: string): string {
  let hashed = hashedKeys.get(key);
  if (hashed === undefined) {
    hashed = createHash('sha256').update(key).digest('base64url');
    const oldest = hashedKeys.keys().next();
    if (hashedKeys.size >= 10_000 && !oldest.done) hashedKeys.delete(oldest.value);
    hashedKeys.set(key, hashed);
  }
  return hashed;
}

/**
 * A fixed-window counter shared by every process using the same bucket (gateway replicas). Each change
 * is a compare-and-set on the key's KV revision, retried on conflict, so concurrent increments are
 * never lost.
 */
export async function createKvWindowCounter(options: KvWindowCounterOptions): Promise<WindowCounter> {
  const bucket = kvBucketNameFor(options.namespace, options.bucket ?? defaultBucket);
  const ownsConnection = 'natsUrl' in options;
  const replicas = assertReplicas(options.replicas ?? 1);
  const nc = ownsConnection ? await connectForever(options.natsUrl, `window-counter ${bucket}`) : options.connection;
  const connection = trackConnection(nc);
  let kv: KV;
  let ttlMs: number;
  try {
    kv = await createConcurrently(() =>
      new Kvm(nc).create(bucket, { history: 1, ttl: options.maxWindowMs ?? defaultMaxWindowMs, replicas }),
    );
    // An existing bucket keeps the TTL it was created with; windows are checked against that one.
    const status = await kv.status();
    ttlMs = status.ttl;
    // Creating an existing bucket changes nothing, so a changed replica count is applied to its stream here.
    if (status.replicas !== replicas) {
      const jsm = await jetstreamManager(nc);
      await jsm.streams.update(status.streamInfo.config.name, { num_replicas: replicas });
      await awaitStreamCopies(jsm, status.streamInfo.config.name, replicas);
    }
  } catch (error) {
    if (ownsConnection) await nc.close();
    throw error;
  }

  /**
   * Applies a batch of changes to one key with a single compare-and-set; the i-th change's count is
   * the count after changes 0..i, exactly as if they had been applied one by one.
   */
  async function applyBatch(k: string, windowMs: number, deltas: number[]): Promise<WindowCount[]> {
    // Fail fast while NATS is away: callers (rate limiters) must not hold every request for a timeout.
    if (!connection.connected) throw new Error('NATS connection lost; window counter unavailable');
    for (let attempt = 1; ; attempt++) {
      const { windowStart, resetAt } = currentWindow(windowMs);
      const entry = await kv.get(k);
      const state = entry?.operation === 'PUT' ? entry.json<WindowState>() : undefined;
      const { current } = nextCount(state, windowStart, windowMs, 1);
      let count = current;
      const counts = deltas.map((delta) => {
        count = Math.max(0, count + delta);
        return { count, resetAt };
      });
      if (count === current) return counts;
      const value = JSON.stringify({ windowStart, windowMs, count } satisfies WindowState);
      try {
        if (entry) await kv.update(k, value, entry.revision);
        else await kv.create(k, value);
        return counts;
      } catch (error) {
        if (!isRevisionConflict(error) || attempt >= maxAttempts) throw error;
        // Another process wrote first: re-read and try again, after a jittered pause that spreads out the contenders.
        await sleep(Math.random() * Math.min(2 ** attempt, 50));
      }
    }
  }

  /*
   * Changes to a key coalesce in this process: while one compare-and-set is in flight, newcomers
   * queue and go together in the next one. A hot key (one busy account, one proxy IP) then costs
   * one round trip per batch instead of a storm of conflicting writes.
   */
  const queues = new Map<string, CounterQueue>();

  async function drain(queueKey: string, queue: CounterQueue, k: string, windowMs: number): Promise<void> {
    try {
      while (queue.pending) {
        const batch = queue.pending;
        queue.pending = undefined;
        try {
          // One count per change: applyBatch maps the deltas, which were queued with their waiters.
          const counts = await applyBatch(k, windowMs, batch.deltas);
          for (const [i, count] of counts.entries()) batch.waiters[i]?.resolve(count);
        } catch (error) {
          for (const waiter of batch.waiters) waiter.reject(error);
        }
      }
    } finally {
      queues.delete(queueKey);
    }
  }

  // Async, so an invalid window is a rejection, not a throw.
  async function add(key: string, windowMs: number, delta: number): Promise<WindowCount> {
    currentWindow(windowMs);
    if (ttlMs > 0 && windowMs > ttlMs) {
      throw new Error(`Window of ${windowMs} ms exceeds the ${ttlMs} ms TTL of bucket ${bucket}: counts would expire mid-window`);
    }
    const k = kvKey(key);
    const queueKey = `${k} ${windowMs}`;
    return new Promise((resolve, reject) => {
      const idle = !queues.has(queueKey);
      const queue = queues.get(queueKey) ?? {};
      queues.set(queueKey, queue);
      queue.pending ??= { deltas: [], waiters: [] };
      queue.pending.deltas.push(delta);
      queue.pending.waiters.push({ resolve, reject });
      if (idle) void drain(queueKey, queue, k, windowMs);
    });
  }

  return {
    increment: (key, windowMs) => add(key, windowMs, 1),
    decrement: (key, windowMs) => add(key, windowMs, -1),
    add,
    async reset(key) {
      await kv.delete(kvKey(key));
    },
    async close() {
      if (ownsConnection) await connection.close();
    },
  };
}
