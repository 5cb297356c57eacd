import type { AnswerOperation } from '@vrs/contracts';
import { deleteInBatches, findPage, type PageRequest, type Store } from '@vrs/store';
import { newUuid } from '@vrs/kit';

export interface OperationDoc extends Omit<AnswerOperation, 'id'> {
  _id: string;
  accountId: string;
}

export function toAnswerOperation({ _id, accountId: _owner, ...operation }: OperationDoc): AnswerOperation {
  return { id: _id, ...operation };
}

/** Answers and reports as they were returned, readable again by their operationId. */
export function createOperationsRepo(store: Store) {
  const operations = store.collection<OperationDoc>('operations');
  return {
    ensureIndexes: () => operations.createIndexes([{ key: { accountId: 1, createdAt: -1 }, name: 'account_newest_first' }]),

    async save(accountId: string, operation: Omit<AnswerOperation, 'id' | 'createdAt'>): Promise<AnswerOperation> {
      const doc: OperationDoc = { _id: newUuid(), accountId, ...operation, createdAt: new Date().toISOString() };
      await operations.insertOne(doc);
      return toAnswerOperation(doc);
    },

    /** Found only for its owner: another account's operation and an unknown one look the same. */
    findOwned: (accountId: string, operationId: string) => operations.findOne({ _id: operationId, accountId }),

    /** A page of the account's answers and reports, newest first; plans page in trends with the same cursor (ADR 0020). */
    pageOwned: (accountId: string, page: PageRequest) => findPage(operations, 'operations', { accountId }, page),

    /** Every answer and report of a deleted account (ADR 0033). */
    deleteAllOfAccount: (accountId: string): Promise<number> => deleteInBatches(operations, { accountId }),
  };
}

export type OperationsRepo = ReturnType<typeof createOperationsRepo>;
