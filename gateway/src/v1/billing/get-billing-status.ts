import { billingStatusSchema, getBillingStatusInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const getBillingStatus = protectedOperation({
  method: 'GET',
  path: '/billing',
  operationId: 'getBillingStatus',
  tags: ['Billing'],
  summary: 'Plan, subscription and credit balance',
  errorResponses: [...authenticatedErrors],
})
  .input(getBillingStatusInput)
  .output(billingStatusSchema)
  .query(({ ctx }) => ctx.services.billing.status.get.query({ accountId: ctx.principal.accountId }));
