import { accountListInput, type ListPage, type PlanOperation } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { z } from 'zod';
import type { TrendsDeps } from '../../trends-deps';

export const listPlansInputSchema = accountListInput();

/** The caller's plans, newest first; the gateway merges them with research's answers and reports (ADR 0020). */
export async function listPlansHandler({
  ctx,
  input: { accountId, ...page },
}: {
  ctx: Pick<TrendsDeps, 'plans'>;
  input: z.infer<typeof listPlansInputSchema>;
}): Promise<ListPage<PlanOperation>> {
  return ctx.plans.pageOwned(accountId, page);
}

export const listPlans = (deps: TrendsDeps) =>
  procedure.input(listPlansInputSchema).query(({ input }) => listPlansHandler({ ctx: deps, input }));
