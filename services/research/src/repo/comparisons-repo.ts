import type { Comparison } from '@vrs/contracts';
import { deleteInBatches, findPage, type PageRequest, type Store } from '@vrs/store';
import { newId } from '@vrs/kit';

export interface ComparisonDoc extends Omit<Comparison, 'id'> {
  _id: string;
  accountId: string;
}

export function toComparison({ _id, accountId: _owner, ...comparison }: ComparisonDoc): Comparison {
  return { id: _id, ...comparison };
}

export function createComparisonsRepo(store: Store) {
  const comparisons = store.collection<ComparisonDoc>('comparisons');
  return {
    ensureIndexes: () => comparisons.createIndexes([{ key: { accountId: 1, createdAt: -1 }, name: 'account_newest_first' }]),

    async save(accountId: string, comparison: Omit<Comparison, 'id' | 'createdAt'>): Promise<Comparison> {
      const doc: ComparisonDoc = { _id: newId('cmp'), accountId, ...comparison, createdAt: new Date().toISOString() };
      await comparisons.insertOne(doc);
      return toComparison(doc);
    },

    /** Found only for its owner: another account's comparison and an unknown one look the same. */
    findOwned: (accountId: string, comparisonId: string) => comparisons.findOne({ _id: comparisonId, accountId }),

    /** A page of the account's comparisons, newest first (ADR 0020). */
    pageOwned: (accountId: string, page: PageRequest) => findPage(comparisons, 'comparisons', { accountId }, page),

    /** Every comparison of a deleted account (ADR 0033). */
    deleteAllOfAccount: (accountId: string): Promise<number> => deleteInBatches(comparisons, { accountId }),
  };
}

export type ComparisonsRepo = ReturnType<typeof createComparisonsRepo>;
