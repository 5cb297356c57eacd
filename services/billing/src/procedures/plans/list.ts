import { listPlansInput, planIds, planListSchema } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';

/** The plan catalogue with this deployment's rate limits, cheapest first. */
export function listPlans({ plans }: BillingDeps) {
  return procedure
    .input(listPlansInput.optional())
    .output(planListSchema)
    .query(() => ({ data: planIds.map((id) => plans[id]) }));
}
