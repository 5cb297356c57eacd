import { planListSchema, listPlansInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const listPlans = protectedOperation({
  method: 'GET',
  path: '/billing/plans',
  operationId: 'listPlans',
  tags: ['Billing'],
  summary: 'Plan catalogue',
  description:
    'Every plan with its monthly credits (the balance is topped up to them at each period start), its per-account rate limit and its informational price. The whole catalogue in one answer: it is not paged.',
  errorResponses: [...authenticatedErrors],
})
  .input(listPlansInput)
  .output(planListSchema)
  .query(({ ctx }) => ctx.services.billing.plans.list.query({}));
