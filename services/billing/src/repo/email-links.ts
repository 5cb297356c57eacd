import { deleteInBatches, type Store } from '@vrs/store';

export type EmailLinkPurpose = 'verify-email' | 'reset-password';

/** A single-use emailed link (ADR 0034). `_id` is the sha256 of its token: the token itself is never stored. */
export interface EmailLinkDoc {
  _id: string;
  accountId: string;
  purpose: EmailLinkPurpose;
  createdAt: string;
  expiresAt: string;
  /** Set when the link was followed, or when a newer link of the same purpose replaced it. */
  usedAt: string | null;
}

export function createEmailLinksRepo(store: Store, clock: () => number) {
  const links = store.collection<EmailLinkDoc>('emailLinks');
  const nowIso = () => new Date(clock()).toISOString();
  return {
    /** Every row of a deleted account (ADR 0033), a batch at a time. */
    deleteAllOfAccount: (accountId: string) => deleteInBatches(links, { accountId }),

    createIndexes: () => links.createIndexes([{ key: { accountId: 1, purpose: 1 }, name: 'account_purpose' }]),

    /** Records a new link and retires the account's earlier unused ones of the same purpose: only the newest works. */
    issue: async (link: Omit<EmailLinkDoc, 'usedAt' | 'createdAt'>) => {
      await links.updateMany({ accountId: link.accountId, purpose: link.purpose, usedAt: null }, { $set: { usedAt: nowIso() } });
      await links.insertOne({ ...link, createdAt: nowIso(), usedAt: null });
    },

    /**
     * Uses a link once: the unused→used transition is one conditional update, so two clicks at once
     * cannot both succeed. Says why a link does not work: unknown (or used, or replaced) vs expired.
     */
    consume: async (hash: string, purpose: EmailLinkPurpose): Promise<EmailLinkDoc | 'invalid' | 'expired'> => {
      const link = await links.findOne({ _id: hash, purpose });
      if (!link || link.usedAt !== null) return 'invalid';
      if (Date.parse(link.expiresAt) <= clock()) return 'expired';
      const used = await links.findOneAndUpdate({ _id: hash, usedAt: null }, { $set: { usedAt: nowIso() } }, { returnDocument: 'after' });
      return used ?? 'invalid';
    },
  };
}
