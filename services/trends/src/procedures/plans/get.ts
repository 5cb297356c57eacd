import { planRefInputSchema, type PlanOperation } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { TrendsDeps } from '../../trends-deps';

/** A generated plan by its operationId, as it was returned; another account's like an unknown one. */
export const getPlan = ({ plans }: TrendsDeps) =>
  procedure.input(planRefInputSchema).query(async ({ input }): Promise<PlanOperation> => {
    const plan = await plans.findOwned(input.accountId, input.operationId);
    if (!plan) throw new AppError('OPERATION_NOT_FOUND');
    return plan;
  });
