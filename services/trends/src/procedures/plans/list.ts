import { accountListInput, type ListPage, type PlanOperation } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { TrendsDeps } from '../../trends-deps';

/** The caller's plans, newest first; the gateway merges them with research's answers and reports (ADR 0020). */
export const listPlans = ({ plans }: TrendsDeps) =>
  procedure
    .input(accountListInput())
    .query(({ input: { accountId, ...page } }): Promise<ListPage<PlanOperation>> => plans.pageOwned(accountId, page));
