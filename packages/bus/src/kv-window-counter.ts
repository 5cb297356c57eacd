import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { kvBucketNameFor } from './names';
import { currentWindow, nextCount, type WindowCount, type WindowCounter, type WindowState } from './window-counter';

export type KvWindowCounterOptions = ({ natsUrl: string } | { connection: NatsConnection }) & {
  namespace: string;
  /** Bucket name after the namespace: letters, digits and `-`. */
  bucket?: string;
  /** Longest window the counter will be asked for; the bucket's TTL, so stale windows expire on their own. */
  maxWindowMs?: number;
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

/** Any caller key (IPs, account ids, ...) becomes a valid, fixed-length KV key. */
function kvKey(key: string): string {
  return createHash('sha256').update(key).digest('base64url');
}

/**
 * A fixed-window counter shared by every process using the same bucket (gateway replicas). Each change
 * is a compare-and-set on the key's KV revision, retried on conflict, so concurrent increments are
 * never lost.
 */
export async function createKvWindowCounter(options: KvWindowCounterOptions): Promise<WindowCounter> {
  const bucket = kvBucketNameFor(options.namespace, options.bucket ?? defaultBucket);
  const ownsConnection = 'natsUrl' in options;
  const nc = ownsConnection ? await connect({ servers: options.natsUrl, name: `window-counter ${bucket}`, maxReconnectAttempts: -1 }) : options.connection;
  let kv: KV;
  let ttlMs: number;
  try {
    kv = await new Kvm(nc).create(bucket, { history: 1, ttl: options.maxWindowMs ?? defaultMaxWindowMs });
    // An existing bucket keeps the TTL it was created with; windows are checked against that one.
    ttlMs = (await kv.status()).ttl;
  } catch (error) {
    if (ownsConnection) await nc.close();
    throw error;
  }

  async function add(key: string, windowMs: number, delta: 1 | -1): Promise<WindowCount> {
    currentWindow(windowMs);
    if (ttlMs > 0 && windowMs > ttlMs) {
      throw new Error(`Window of ${windowMs} ms exceeds the ${ttlMs} ms TTL of bucket ${bucket}: counts would expire mid-window`);
    }
    const k = kvKey(key);
    for (let attempt = 1; ; attempt++) {
      const { windowStart, resetAt } = currentWindow(windowMs);
      const entry = await kv.get(k);
      const state = entry?.operation === 'PUT' ? entry.json<WindowState>() : undefined;
      const { current, next } = nextCount(state, windowStart, windowMs, delta);
      if (next === current) return { count: next, resetAt };
      const value = JSON.stringify({ windowStart, windowMs, count: next } satisfies WindowState);
      try {
        if (entry) await kv.update(k, value, entry.revision);
        else await kv.create(k, value);
        return { count: next, resetAt };
      } catch (error) {
        if (!isRevisionConflict(error) || attempt >= maxAttempts) throw error;
        // Someone else wrote first: re-read and try again, after a jittered pause that spreads out the contenders.
        await sleep(Math.random() * Math.min(2 ** attempt, 50));
      }
    }
  }

  return {
    increment: (key, windowMs) => add(key, windowMs, 1),
    decrement: (key, windowMs) => add(key, windowMs, -1),
    async reset(key) {
      await kv.delete(kvKey(key));
    },
    async close() {
      if (ownsConnection && !nc.isClosed()) await nc.drain();
    },
  };
}
