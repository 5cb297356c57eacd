import type { PlanOperation } from '@vrs/contracts';
import { deleteInBatches, findPage, mapPage, type PageRequest, type Store } from '@vrs/store';

export interface PlanDoc extends Omit<PlanOperation, 'id'> {
  /** The plan's operationId. */
  _id: string;
  accountId: string;
}

function toPlan({ _id, accountId: _owner, ...plan }: PlanDoc): PlanOperation {
  return { id: _id, ...plan };
}

/** Generated video plans, readable again by their operationId (GET /v1/operations/{id}). */
export function createPlansRepo(store: Store) {
  const plans = store.collection<PlanDoc>('plans');
  return {
    ensureIndexes: () => plans.createIndexes([{ key: { accountId: 1, createdAt: -1 }, name: 'account_newest_first' }]),

    async save(accountId: string, { id, ...stored }: PlanOperation): Promise<void> {
      await plans.insertOne({ _id: id, accountId, ...stored });
    },

    /** Found only for its owner: another account's plan and an unknown one look the same. */
    async findOwned(accountId: string, operationId: string): Promise<PlanOperation | null> {
      const doc = await plans.findOne({ _id: operationId, accountId });
      return doc && toPlan(doc);
    },

    /** A page of the account's plans, newest first; answers and reports page in research with the same cursor (ADR 0020). */
    pageOwned: async (accountId: string, page: PageRequest) => mapPage(await findPage(plans, 'operations', { accountId }, page), toPlan),

    /** Every plan of a deleted account (ADR 0033). */
    deleteAllOfAccount: (accountId: string): Promise<number> => deleteInBatches(plans, { accountId }),
  };
}

export type PlansRepo = ReturnType<typeof createPlansRepo>;
