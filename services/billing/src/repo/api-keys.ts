import { randomInt } from 'node:crypto';
import type { ApiKey, Scope } from '@vrs/contracts';
import { deleteInBatches, findPage, mapPage, type PageRequest, type StoreScope } from '@vrs/store';
import { hashToken } from '../identity/tokens';

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
  /** Null (or absent, on keys made before expiry existed): the key does not expire. */
  expiresAt?: string | null;
  /** The latest use the gateway reported; absent until the first. */
  lastUsedAt?: string | null;
  revokedAt: string | null;
}

/** The public view: never the key or its hash. */
export function toApiKey(doc: ApiKeyDoc): ApiKey {
  return {
    id: doc._id,
    prefix: doc.prefix,
    name: doc.name,
    scopes: doc.scopes,
    createdAt: doc.createdAt,
    expiresAt: doc.expiresAt ?? null,
    lastUsedAt: doc.lastUsedAt ?? null,
  };
}

const keyPrefix = 'aty_';
const secretLength = 40;
const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const displayPrefixLength = 12;

/** `aty_` + 40 base62 characters (≈238 bits) from the system's CSPRNG, each equally likely (`randomInt` has no modulo bias). */
export function generateApiKey(): string {
  return keyPrefix + Array.from({ length: secretLength }, () => base62[randomInt(base62.length)]).join('');
}

export function createApiKeysRepo(store: StoreScope, clock: () => number = Date.now) {
  const apiKeys = store.collection<ApiKeyDoc>('apiKeys');
  const isExpired = (doc: ApiKeyDoc): doc is ApiKeyDoc & { expiresAt: string } =>
    doc.expiresAt != null && Date.parse(doc.expiresAt) <= clock();
  return {
    createIndexes: () =>
      apiKeys.createIndexes([
        { key: { hash: 1 }, unique: true, name: 'hash_unique' },
        { key: { accountId: 1, createdAt: -1, _id: -1 }, name: 'account_newest_first' },
      ]),

    insert: (apiKey: ApiKeyDoc) => apiKeys.insertOne(apiKey),

    isExpired,

    /** A key that was not revoked, expired or not. */
    findUnrevokedByKey: (key: string) => apiKeys.findOne({ hash: hashToken(key), revokedAt: null }),

    /** Keys that still authenticate: neither revoked nor expired. */
    countActive: async (accountId: string) =>
      (await apiKeys.find({ accountId, revokedAt: null }, { projection: { expiresAt: 1 } })).filter((doc) => !isExpired(doc)).length,

    /** Unrevoked keys, expired ones included (so their owner sees why they fail), newest first (ADR 0020). */
    page: async (accountId: string, page: PageRequest) =>
      mapPage(await findPage(apiKeys, 'apiKeys', { accountId, revokedAt: null }, page), toApiKey),

    /** Revokes once; returns whether it matched a key of the account that was not revoked yet. */
    revoke: async (accountId: string, keyId: string) => {
      const { matchedCount } = await apiKeys.updateOne(
        { _id: keyId, accountId, revokedAt: null },
        { $set: { revokedAt: new Date(clock()).toISOString() } },
      );
      return matchedCount === 1;
    },

    /** lastUsedAt becomes `at` unless it is already later: batches may arrive out of order from several gateways. */
    touch: async (keyId: string, at: string) => {
      const { modifiedCount } = await apiKeys.updateOne(
        { _id: keyId, $or: [{ lastUsedAt: { $exists: false } }, { lastUsedAt: null }, { lastUsedAt: { $lt: at } }] },
        { $set: { lastUsedAt: at } },
      );
      return modifiedCount === 1;
    },
    /** Revokes every active key of the account at once (its deletion); returns how many. */
    revokeAllOfAccount: async (accountId: string, revokedAt: string) =>
      (await apiKeys.updateMany({ accountId, revokedAt: null }, { $set: { revokedAt } })).modifiedCount,

    /** Deletes every key of a deleted account, revoked already (ADR 0033): names and hashes are gone too. */
    deleteAllOfAccount: (accountId: string) => deleteInBatches(apiKeys, { accountId }),
  };
}
