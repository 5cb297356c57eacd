import { ledgerPageSchema, listQuery } from '@vrs/contracts';
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
      description:
        'Every grant, reservation, settlement and refund. Page with `limit` and `cursor`: pass each page’s `nextCursor` as `cursor` while `hasMore` is true.',
      protect: true,
      errorResponses: [...authenticatedErrors, 422],
    },
  })
  .input(listQuery())
  .output(ledgerPageSchema)
  .query(async ({ ctx, input }) => {
    // This process's lease of the account is settled first, so the figures include every charge made here (ADR 0039).
    await ctx.creditLeases?.returnAccount(ctx.principal.accountId);
    return ctx.services.billing.ledger.list.query({ accountId: ctx.principal.accountId, ...input });
  });
