import type { Scope } from '@vrs/contracts';
import { deleteInBatches, type Store } from '@vrs/store';

/**
 * One refresh token of an OAuth grant (ADR 0095). The grant's session is the family: every
 * refresh uses one token up and issues the next; presenting a used one revokes the session.
 */
export interface OAuthRefreshTokenDoc {
  _id: string;
  /** sha256 (hex) of the token. */
  tokenHash: string;
  /** The grant: a session of kind `oauth`. */
  sessionId: string;
  clientId: string;
  accountId: string;
  /** The grant's scopes, so a refresh asking for more is refused before anything changes. */
  scopes: Scope[];
  createdAt: string;
  /** The grant's end (refresh tokens never outlive it). */
  expiresAt: string;
  usedAt: string | null;
}

export function createOAuthRefreshTokensRepo(store: Store) {
  const tokens = store.collection<OAuthRefreshTokenDoc>('oauth_refresh_tokens');
  return {
    deleteAllOfAccount: (accountId: string) => deleteInBatches(tokens, { accountId }),
    createIndexes: () =>
      tokens.createIndexes([
        { key: { tokenHash: 1 }, unique: true, name: 'tokenHash_unique' },
        { key: { expiresAt: 1 }, name: 'expiresAt_1' },
      ]),
    insert: (doc: OAuthRefreshTokenDoc) => tokens.insertOne(doc),
    byTokenHash: (hash: string) => tokens.findOne({ tokenHash: hash }),
    /** unused → used, at most once: a second presentation (or a racing one) is reuse. */
    claim: (id: string, now: string) =>
      tokens.findOneAndUpdate({ _id: id, usedAt: null }, { $set: { usedAt: now } }, { returnDocument: 'after' }),
    /** Tokens past their grant's end; called as grants open, so the collection stays bounded. */
    purge: async (now: string) => (await tokens.deleteMany({ expiresAt: { $lte: now } })).deletedCount,
  };
}
