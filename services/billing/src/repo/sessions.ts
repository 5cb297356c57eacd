import type { Scope, SessionKind, SessionSummary } from '@vrs/contracts';
import { deleteInBatches, findPage, mapPage, type PageRequest, type Store } from '@vrs/store';

/** One web or CLI session (ADR 0034). The token is never stored, only its hash. */
export interface SessionDoc {
  _id: string;
  accountId: string;
  kind: SessionKind;
  /** sha256 (hex) of the current token. */
  tokenHash: string;
  /** null: the owner (web sessions); a CLI session holds the scopes its user approved. */
  scopes: Scope[] | null;
  /** Web sessions: the CSRF token bound to the session; it survives rotation and dies with the session. */
  csrfToken: string | null;
  createdAt: string;
  expiresAt: string;
  lastRotatedAt: string;
  /** The token replaced by the last rotation, still accepted until `previousValidUntil` (requests in flight). */
  previousTokenHash: string | null;
  previousValidUntil: string | null;
  revokedAt: string | null;
  userAgent: string | null;
  ip: string | null;
  label: string | null;
  /** OAuth grants (ADR 0095): when the current access token stops working, before the grant's `expiresAt`. */
  tokenExpiresAt?: string | null;
  /** OAuth grants: the client the grant was made to. */
  clientId?: string | null;
}

export function toSessionSummary(doc: SessionDoc): SessionSummary {
  return {
    id: doc._id,
    kind: doc.kind,
    scopes: doc.scopes,
    createdAt: doc.createdAt,
    expiresAt: doc.expiresAt,
    lastRotatedAt: doc.lastRotatedAt,
    userAgent: doc.userAgent,
    ip: doc.ip,
    label: doc.label,
  };
}

export function createSessionsRepo(store: Store, clock: () => number) {
  const sessions = store.collection<SessionDoc>('sessions');
  const nowIso = () => new Date(clock()).toISOString();
  /** Not revoked and not expired, now. */
  const live = () => ({ revokedAt: null, expiresAt: { $gt: nowIso() } });
  return {
    /** Every row of a deleted account (ADR 0033), a batch at a time. */
    deleteAllOfAccount: (accountId: string) => deleteInBatches(sessions, { accountId }),

    createIndexes: () =>
      sessions.createIndexes([
        { key: { tokenHash: 1 }, unique: true, name: 'tokenHash_unique' },
        { key: { previousTokenHash: 1 }, name: 'previousTokenHash' },
        { key: { accountId: 1, createdAt: -1, _id: -1 }, name: 'account_newest_first' },
      ]),

    insert: (session: SessionDoc) => sessions.insertOne(session),

    /** The live session whose current token, or whose previous token still in its grace, hashes to `hash`. */
    findLiveByTokenHash: async (hash: string) => {
      const current = await sessions.findOne({ tokenHash: hash, ...live() });
      // An OAuth access token ends before its grant does (ADR 0095).
      if (current?.tokenExpiresAt && current.tokenExpiresAt <= nowIso()) return null;
      if (current) return { session: current, current: true };
      const previous = await sessions.findOne({ previousTokenHash: hash, previousValidUntil: { $gt: nowIso() }, ...live() });
      return previous ? { session: previous, current: false } : null;
    },

    /**
     * Swaps the current token for `newHash` only while `oldHash` is still current (one conditional
     * update), so of two requests rotating at once exactly one wins; the other keeps using the old
     * token through its grace.
     */
    rotate: (sessionId: string, oldHash: string, newHash: string, graceMs: number) => {
      const now = clock();
      return sessions.findOneAndUpdate(
        { _id: sessionId, tokenHash: oldHash, ...live() },
        {
          $set: {
            tokenHash: newHash,
            previousTokenHash: oldHash,
            previousValidUntil: new Date(now + graceMs).toISOString(),
            lastRotatedAt: new Date(now).toISOString(),
          },
        },
        { returnDocument: 'after' },
      );
    },

    /**
     * An OAuth refresh (ADR 0095): the grant's access token becomes `newHash`, valid until
     * `tokenExpiresAt`; the one it replaces stops at once. Null when the grant has ended.
     */
    replaceAccessToken: (sessionId: string, newHash: string, tokenExpiresAt: string) =>
      sessions.findOneAndUpdate(
        { _id: sessionId, kind: 'oauth', ...live() },
        { $set: { tokenHash: newHash, tokenExpiresAt, lastRotatedAt: nowIso(), previousTokenHash: null, previousValidUntil: null } },
      ),

    /** Live sessions of an account, newest first (ADR 0020). */
    page: async (accountId: string, page: PageRequest) =>
      mapPage(await findPage(sessions, 'sessions', { accountId, ...live() }, page), toSessionSummary),

    /** Ends a live session of the account; false when there is none by that id (unknown, another account's, or already ended). */
    revoke: async (accountId: string, sessionId: string) => {
      const { matchedCount } = await sessions.updateOne({ _id: sessionId, accountId, ...live() }, { $set: { revokedAt: nowIso() } });
      return matchedCount === 1;
    },

    /** Ends every live session of the account but `exceptSessionId`; returns how many ended. */
    revokeAll: async (accountId: string, exceptSessionId?: string) => {
      const filter = exceptSessionId === undefined ? { accountId, ...live() } : { accountId, _id: { $ne: exceptSessionId }, ...live() };
      const { modifiedCount } = await sessions.updateMany(filter, { $set: { revokedAt: nowIso() } });
      return modifiedCount;
    },
  };
}
