import type { Store } from '@vrs/store';

interface AllowedAccountDoc {
  _id: string;
  allowedAt: string;
}

/**
 * Accounts an operator allowed (`npm run agents:allow`). Read on every admission, so a change
 * takes effect at once on every replica, without a restart.
 */
export function createAccessRepo(store: Store) {
  const allowed = store.collection<AllowedAccountDoc>('agent_allowed_accounts');

  return {
    isAllowed: async (accountId: string) => (await allowed.findOne({ _id: accountId })) !== null,
    async set(accountId: string, allow: boolean, at: string): Promise<void> {
      if (allow) await allowed.updateOne({ _id: accountId }, { $set: { allowedAt: at } }, { upsert: true });
      else await allowed.deleteOne({ _id: accountId });
    },
  };
}

export type AccessRepo = ReturnType<typeof createAccessRepo>;
