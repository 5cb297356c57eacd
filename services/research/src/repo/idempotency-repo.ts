import { createHash } from 'node:crypto';
import { DuplicateKeyError, type Store } from '@vrs/store';

/** How long a key answers with its first response (Stripe keeps keys 24 hours too). */
export const idempotencyWindowMs = 24 * 60 * 60 * 1000;

interface IdempotencyDoc {
  _id: string;
  fingerprint: string;
  /** The first response, once the first request has finished; absent while it runs. */
  response?: unknown;
  createdAt: string;
}

export type IdempotencyClaim = { kind: 'claimed'; id: string } | { kind: 'existing'; fingerprint: string; response?: unknown };

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Stored by a hash of (account, operation, key): the key is the caller's text and may be anything printable. */
export function createIdempotencyRepo(store: Store) {
  const keys = store.collection<IdempotencyDoc>('idempotency_keys');

  return {
    /**
     * Takes the key for this request, or answers what an earlier request with it left: its
     * fingerprint and, once it finished, its response. A key older than the window is taken afresh.
     */
    async claim(accountId: string, operation: string, key: string, fingerprint: string): Promise<IdempotencyClaim> {
      const id = sha256(`${accountId}\n${operation}\n${key}`);
      const cutoff = new Date(Date.now() - idempotencyWindowMs).toISOString();
      await keys.deleteOne({ _id: id, createdAt: { $lt: cutoff } });
      try {
        await keys.insertOne({ _id: id, fingerprint, createdAt: new Date().toISOString() });
        return { kind: 'claimed', id };
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
        const existing = await keys.findOne({ _id: id });
        // Released between our insert and read: the caller may simply retry.
        if (!existing) return { kind: 'existing', fingerprint };
        return { kind: 'existing', fingerprint: existing.fingerprint, response: existing.response };
      }
    },

    complete: async (id: string, response: unknown) => {
      await keys.updateOne({ _id: id }, { $set: { response } });
    },

    /** The first request failed: its key is free again, so a retry does the work instead of replaying a failure. */
    release: async (id: string) => {
      await keys.deleteOne({ _id: id });
    },

    fingerprintOf: (request: unknown) => sha256(JSON.stringify(request)),
  };
}

export type IdempotencyRepo = ReturnType<typeof createIdempotencyRepo>;
