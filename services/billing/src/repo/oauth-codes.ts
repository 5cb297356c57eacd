import type { Scope } from '@vrs/contracts';
import { deleteInBatches, type Store } from '@vrs/store';

/** An authorization code (RFC 6749 §4.1.2, ADR 0095): single-use, short-lived, stored as its hash. */
export interface OAuthCodeDoc {
  _id: string;
  /** sha256 (hex) of the code. */
  codeHash: string;
  clientId: string;
  accountId: string;
  /** The exact redirect_uri of the authorize request; the token request must repeat it. */
  redirectUri: string;
  /** PKCE S256 challenge (RFC 7636). */
  codeChallenge: string;
  scopes: Scope[];
  createdAt: string;
  expiresAt: string;
  /** Kept past expiry for a day, so a replayed code is recognised and its grant revoked. */
  purgeAt: string;
  usedAt: string | null;
  /** The grant (session) the code was exchanged for. */
  sessionId: string | null;
}

export function createOAuthCodesRepo(store: Store) {
  const codes = store.collection<OAuthCodeDoc>('oauth_codes');
  return {
    deleteAllOfAccount: (accountId: string) => deleteInBatches(codes, { accountId }),
    createIndexes: () =>
      codes.createIndexes([
        { key: { codeHash: 1 }, unique: true, name: 'codeHash_unique' },
        { key: { purgeAt: 1 }, name: 'purgeAt_1' },
      ]),
    insert: (doc: OAuthCodeDoc) => codes.insertOne(doc),
    byCodeHash: (hash: string) => codes.findOne({ codeHash: hash }),
    /** unused → used, at most once: of two exchanges of one code exactly one wins. */
    claim: (id: string, now: string) =>
      codes.findOneAndUpdate({ _id: id, usedAt: null }, { $set: { usedAt: now } }, { returnDocument: 'after' }),
    recordSession: (id: string, sessionId: string) => codes.updateOne({ _id: id }, { $set: { sessionId } }),
    purge: async (now: string) => (await codes.deleteMany({ purgeAt: { $lte: now } })).deletedCount,
  };
}
