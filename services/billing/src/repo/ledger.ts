import type { LedgerEntry } from '@vrs/contracts';
import { findPage, mapPage, type PageRequest, type StoreScope } from '@vrs/store';
import { newLedgerId } from './ids';

/** One append-only ledger line; its amount is the signed change it made to the balance. */
export interface LedgerDoc extends Omit<LedgerEntry, 'id'> {
  _id: string;
  accountId: string;
}

/** `id` only for a line that must exist at most once (a period's renewal grant): a second insert is a DuplicateKeyError. */
export type NewLedgerEntry = Omit<LedgerDoc, '_id' | 'createdAt'> & { id?: string };

function toEntry({ _id, accountId: _accountId, ...entry }: LedgerDoc): LedgerEntry {
  return { id: _id, ...entry };
}

/** `written` (a transaction's) collects each line appended, for metrics once the transaction commits. */
export function createLedgerRepo(store: StoreScope, clock: () => number = Date.now, written?: NewLedgerEntry[]) {
  const ledger = store.collection<LedgerDoc>('ledger');
  return {
    createIndexes: () => ledger.createIndexes([{ key: { accountId: 1, createdAt: -1, _id: -1 }, name: 'account_newest_first_by_time' }]),

    append: async ({ id, ...entry }: NewLedgerEntry): Promise<LedgerEntry> => {
      const now = clock();
      const doc: LedgerDoc = { _id: id ?? newLedgerId(now), ...entry, createdAt: new Date(now).toISOString() };
      await ledger.insertOne(doc);
      written?.push(entry);
      return toEntry(doc);
    },

    appendMany: async (entries: NewLedgerEntry[]): Promise<void> => {
      const now = clock();
      const createdAt = new Date(now).toISOString();
      await ledger.insertMany(entries.map(({ id, ...entry }) => ({ _id: id ?? newLedgerId(now), ...entry, createdAt })));
      written?.push(...entries);
    },

    exists: async (id: string) => (await ledger.findOne({ _id: id })) !== null,
    /**
     * Removes what a deleted account's lines hold that a caller chose — the request ids, which may be
     * the caller's own `X-Request-Id` — a batch at a time; amounts, kinds and operations stay for
     * accounting (ADR 0033). Returns how many lines changed; a second run changes none.
     */
    async anonymise(accountId: string, batchSize = 200): Promise<number> {
      let changed = 0;
      for (;;) {
        const ids = (await ledger.find({ accountId, requestId: { $ne: null } }, { limit: batchSize, projection: { _id: 1 } })).map(
          (doc) => doc._id,
        );
        if (ids.length === 0) return changed;
        changed += (await ledger.updateMany({ _id: { $in: ids } }, { $set: { requestId: null } })).modifiedCount;
      }
    },

    /** Newest first (ADR 0020). */
    page: async (accountId: string, page: PageRequest) => mapPage(await findPage(ledger, 'ledger', { accountId }, page), toEntry),
  };
}

export type LedgerRepo = ReturnType<typeof createLedgerRepo>;
