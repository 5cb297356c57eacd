import { planRefInputSchema, type PlanOperation } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { z } from 'zod';
import type { TrendsDeps } from '../../trends-deps';

export async function getPlanHandler({
  ctx,
  input,
}: {
  ctx: Pick<TrendsDeps, 'plans'>;
  input: z.infer<typeof planRefInputSchema>;
}): Promise<PlanOperation> {
  const plan = await ctx.plans.findOwned(input.accountId, input.operationId);
  if (!plan) throw new AppError('OPERATION_NOT_FOUND');
  return plan;
}

/** A generated plan by its operationId, as it was returned; another account's like an unknown one. */
export const getPlan = (deps: TrendsDeps) => procedure.input(planRefInputSchema).query(({ input }) => getPlanHandler({ ctx: deps, input }));
