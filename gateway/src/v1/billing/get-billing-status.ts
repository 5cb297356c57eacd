import { billingStatusSchema, getBillingStatusInput } from '@vrs/contracts';
import { protectedProcedure } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const getBillingStatus = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/billing',
      operationId: 'getBillingStatus',
      tags: ['Billing'],
      summary: 'Plan, subscription and credit balance',
      protect: true,
      errorResponses: [...authenticatedErrors],
    },
  })
  .input(getBillingStatusInput)
  .output(billingStatusSchema)
  .query(({ ctx }) => ctx.services.billing.status.get.query({ accountId: ctx.principal.accountId }));
