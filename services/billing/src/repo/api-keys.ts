import { createHash, randomBytes } from 'node:crypto';
import type { Scope } from '@vrs/contracts';
import { deleteInBatches, type StoreScope } from '@vrs/store';

export interface ApiKeyDoc {
  _id: string;
  accountId: string;
  name: string;
  /** sha256 of the key, hex. The key itself is never stored: a leaked database yields no usable key. */
  hash: string;
  /** The first characters of the key, so a person can tell keys apart in a list. */
  prefix: string;
  scopes: Scope[];
  createdAt: string;
  revokedAt: string | null;
}

const keyPrefix = 'aty_';
const secretLength = 40;
const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 248 = 4 × 62: bytes at or above it are skipped so every character is equally likely (no modulo bias). */
const unbiasedByteLimit = 248;
export const displayPrefixLength = 12;

/** `aty_` + 40 base62 characters (≈238 bits) from the system's CSPRNG. */
export function generateApiKey(): string {
  let secret = '';
  while (secret.length < secretLength) {
    for (const byte of randomBytes(secretLength)) {
      if (byte < unbiasedByteLimit && secret.length < secretLength) secret += base62[byte % 62];
    }
  }
  return keyPrefix + secret;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function createApiKeysRepo(store: StoreScope) {
  const apiKeys = store.collection<ApiKeyDoc>('apiKeys');
  return {
    createIndexes: () =>
      apiKeys.createIndexes([
        { key: { hash: 1 }, unique: true, name: 'hash_unique' },
        { key: { accountId: 1 }, name: 'account' },
      ]),

    insert: (apiKey: ApiKeyDoc) => apiKeys.insertOne(apiKey),

    findActiveByKey: (key: string) => apiKeys.findOne({ hash: hashApiKey(key), revokedAt: null }),

    findOwned: (accountId: string, keyId: string) => apiKeys.findOne({ _id: keyId, accountId }),

    listByAccount: (accountId: string) => apiKeys.find({ accountId }, { sort: { createdAt: -1 } }),

    /** Revokes once: a later call leaves the first revocation time in place. Returns whether it matched an active key. */
    revoke: async (accountId: string, keyId: string) => {
      const { matchedCount } = await apiKeys.updateOne(
        { _id: keyId, accountId, revokedAt: null },
        { $set: { revokedAt: new Date().toISOString() } },
      );
      return matchedCount === 1;
    },

    /** Revokes every active key of the account at once (its deletion); returns how many. */
    revokeAllOfAccount: async (accountId: string, revokedAt: string) =>
      (await apiKeys.updateMany({ accountId, revokedAt: null }, { $set: { revokedAt } })).modifiedCount,

    /** Deletes every key of a deleted account, revoked already (ADR 0033): names and hashes are gone too. */
    deleteAllOfAccount: (accountId: string) => deleteInBatches(apiKeys, { accountId }),
  };
}

export type ApiKeysRepo = ReturnType<typeof createApiKeysRepo>;
