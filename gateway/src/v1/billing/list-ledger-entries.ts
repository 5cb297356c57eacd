import { z } from 'zod';
import { ledgerPageSchema } from '@vrs/contracts';
import { protectedProcedure } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const listLedgerEntries = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/billing/ledger',
      operationId: 'listLedgerEntries',
      tags: ['Billing'],
      summary: 'Credit ledger, newest first',
      description: 'Every grant, reservation, settlement and refund. Page with `limit` and `startingAfter` while `hasMore` is true.',
      protect: true,
      errorResponses: [...authenticatedErrors, 422],
    },
    auth: { scopes: ['account:access'] },
  })
  .input(z.object({ limit: z.number().int().min(1).max(100).default(20), startingAfter: z.string().min(1).max(100).optional() }))
  .output(ledgerPageSchema)
  .query(({ ctx, input }) => ctx.services.billing.ledger.list.query({ accountId: ctx.principal.accountId, ...input }));
