import type { DigestPreferences } from '@vrs/contracts';
import type { Store } from '@vrs/store';

export interface DigestPreferencesDoc extends Omit<DigestPreferences, 'nextDigestAt'> {
  /** The account id: one document per account. */
  _id: string;
  /** Epoch ms, which the due query compares; answered as an ISO string. */
  nextDigestAt: number | null;
  /** Epoch ms of the last digest sent; what the next one summarizes starts there. */
  lastDigestAt: number | null;
  leaseUntil: number;
  leaseToken: string | null;
}

export const defaultDigestPreferences = {
  frequency: 'off',
  hourOfDay: 9,
  timezone: 'UTC',
  channels: ['in_app'],
  nextDigestAt: null,
} as const;

/** Digest preferences per account; due digests are claimed like due monitors (ADR 0028). */
export function createDigestPreferencesRepo(store: Store) {
  const preferences = store.collection<DigestPreferencesDoc>('digest_preferences');
  return {
    ensureIndexes: () => preferences.createIndexes([{ key: { nextDigestAt: 1 }, name: 'due' }]),

    find: (accountId: string) => preferences.findOne({ _id: accountId }),

    /** A deleted account's preferences: no digest is due for it afterwards (ADR 0033). */
    delete: async (accountId: string): Promise<number> => (await preferences.deleteOne({ _id: accountId })).deletedCount,

    put: (accountId: string, set: Omit<DigestPreferencesDoc, '_id' | 'lastDigestAt' | 'leaseUntil' | 'leaseToken'>) =>
      preferences.findOneAndUpdate(
        { _id: accountId },
        { $set: set, $setOnInsert: { lastDigestAt: null, leaseUntil: 0, leaseToken: null } },
        { upsert: true },
      ),

    /** One due digest, with a lease: `nextDigestAt <= now` (null never matches: digests off). */
    claimDue: (now: number, leaseMs: number, leaseToken: string) =>
      preferences.findOneAndUpdate(
        { nextDigestAt: { $lte: now }, leaseUntil: { $lte: now } },
        { $set: { leaseUntil: now + leaseMs, leaseToken } },
        { sort: { nextDigestAt: 1 } },
      ),

    async finish(
      accountId: string,
      leaseToken: string,
      set: Pick<DigestPreferencesDoc, 'nextDigestAt' | 'lastDigestAt'>,
    ): Promise<boolean> {
      const result = await preferences.updateOne({ _id: accountId, leaseToken }, { $set: { ...set, leaseUntil: 0, leaseToken: null } });
      return result.matchedCount === 1;
    },
  };
}

export type DigestPreferencesRepo = ReturnType<typeof createDigestPreferencesRepo>;
