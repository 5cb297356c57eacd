import { createHash } from 'node:crypto';
import { DuplicateKeyError, deleteInBatches, expiresAt, expiryIndex, type Store } from '@vrs/store';

interface IdempotencyDoc {
  _id: string;
  /** Whose key it is, so an account's deletion finds its records (absent on records written before ADR 0033; they expire). */
  accountId?: string;
  fingerprint: string;
  /** The first response, once the first request has finished; absent while it runs. */
  response?: unknown;
  createdAt: string;
  /** createdAt + the key's time to live: the retention sweeper deletes the record after it (ADR 0029). */
  expiresAt?: string;
}

export interface IdempotencyRepoOptions {
  /** How long a key answers with its first response (24 h by default; Stripe keeps keys 24 hours too). */
  ttlMs: number;
  /** Milliseconds since the epoch; tests inject one to move time. */
  clock: () => number;
}

export type IdempotencyClaim = { kind: 'claimed'; id: string } | { kind: 'existing'; fingerprint: string; response?: unknown };

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Stored by a hash of (account, operation, key): the key is the caller's text and may be anything printable. */
export function createIdempotencyRepo(store: Store, { ttlMs, clock }: IdempotencyRepoOptions) {
  const keys = store.collection<IdempotencyDoc>('idempotency_keys');

  return {
    /** What the retention sweeper prunes. */
    expiring: { idempotency_keys: keys },

    ensureIndexes: () => keys.createIndexes([expiryIndex, { key: { accountId: 1 }, name: 'account' }]),

    /** Every record of a deleted account (ADR 0033). */
    deleteAllOfAccount: (accountId: string): Promise<number> => deleteInBatches(keys, { accountId }),

    /**
     * Takes the key for this request, or answers what an earlier request with it left: its
     * fingerprint and, once it finished, its response. An expired key is taken afresh, whether or not
     * the sweeper has deleted it yet (records written before ADR 0029 expire by their createdAt).
     */
    async claim(accountId: string, operation: string, key: string, fingerprint: string): Promise<IdempotencyClaim> {
      const id = sha256(`${accountId}\n${operation}\n${key}`);
      const now = clock();
      const nowIso = new Date(now).toISOString();
      const legacyCutoff = new Date(now - ttlMs).toISOString();
      await keys.deleteOne({
        _id: id,
        $or: [{ expiresAt: { $lte: nowIso } }, { expiresAt: { $exists: false }, createdAt: { $lte: legacyCutoff } }],
      });
      try {
        await keys.insertOne({ _id: id, accountId, fingerprint, createdAt: nowIso, expiresAt: expiresAt(now, ttlMs) });
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
