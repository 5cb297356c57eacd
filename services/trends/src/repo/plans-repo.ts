import type { PlanOperation } from '@vrs/contracts';
import type { Store } from '@vrs/store';

export interface PlanDoc extends Omit<PlanOperation, 'id'> {
  /** The plan's operationId. */
  _id: string;
  accountId: string;
}

/** Generated video plans, readable again by their operationId (GET /v1/operations/{id}). */
export function createPlansRepo(store: Store) {
  const plans = store.collection<PlanDoc>('plans');
  return {
    ensureIndexes: () => plans.createIndexes([{ key: { accountId: 1, createdAt: -1 }, name: 'account_newest_first' }]),

    async save(accountId: string, plan: PlanOperation): Promise<void> {
      const { id, ...stored } = plan;
      await plans.insertOne({ _id: id, accountId, ...stored });
    },

    /** Found only for its owner: another account's plan and an unknown one look the same. */
    async findOwned(accountId: string, operationId: string): Promise<PlanOperation | null> {
      const doc = await plans.findOne({ _id: operationId, accountId });
      if (!doc) return null;
      const { _id, accountId: _owner, ...plan } = doc;
      return { id: _id, ...plan };
    },
  };
}

export type PlansRepo = ReturnType<typeof createPlansRepo>;
