import type { LedgerEntry } from '@vrs/contracts';
import type { StoreScope } from '@vrs/store';
import { newLedgerId } from './ids';

/** One append-only ledger line; its amount is the signed change it made to the balance. */
export interface LedgerDoc extends Omit<LedgerEntry, 'id'> {
  _id: string;
  accountId: string;
}

export type NewLedgerEntry = Omit<LedgerDoc, '_id' | 'createdAt'>;

function toEntry({ _id, accountId: _accountId, ...entry }: LedgerDoc): LedgerEntry {
  return { id: _id, ...entry };
}

export function createLedgerRepo(store: StoreScope, clock: () => number = Date.now) {
  const ledger = store.collection<LedgerDoc>('ledger');
  return {
    createIndexes: () => ledger.createIndexes([{ key: { accountId: 1, _id: -1 }, name: 'account_newest_first' }]),

    append: async (entry: NewLedgerEntry): Promise<LedgerEntry> => {
      const now = clock();
      const doc: LedgerDoc = { _id: newLedgerId(now), ...entry, createdAt: new Date(now).toISOString() };
      await ledger.insertOne(doc);
      return toEntry(doc);
    },

    /**
     * Newest first, Stripe-style: `startingAfter` is the id of the last entry the caller has seen.
     * Ids sort by time, so the cursor is a plain range bound; one extra row tells whether more exist.
     */
    page: async (accountId: string, limit: number, startingAfter?: string) => {
      const docs = await ledger.find(
        { accountId, ...(startingAfter ? { _id: { $lt: startingAfter } } : {}) },
        { sort: { _id: -1 }, limit: limit + 1 },
      );
      return { entries: docs.slice(0, limit).map(toEntry), hasMore: docs.length > limit };
    },
  };
}

export type LedgerRepo = ReturnType<typeof createLedgerRepo>;
