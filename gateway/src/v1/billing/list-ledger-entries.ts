import { ledgerPageSchema, listLedgerEntriesInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const listLedgerEntries = protectedOperation({
  method: 'GET',
  path: '/billing/ledger',
  operationId: 'listLedgerEntries',
  tags: ['Billing'],
  summary: 'Credit ledger, newest first',
  description:
    'Every grant, every charge (one line per request or job charged, naming its operation and request id) and every refund of a charge; credits held by operations in progress are not lines (see `reserved` in `GET /v1/billing`). Older lines may be `reserve`/`settle` pairs: a hold, and what its settle gave back. Page with `limit` and `cursor`: pass each page’s `nextCursor` as `cursor` while `hasMore` is true.',
  errorResponses: [...authenticatedErrors, 422],
})
  .input(listLedgerEntriesInput)
  .output(ledgerPageSchema)
  .query(({ ctx, input }) => ctx.services.billing.ledger.list.query({ accountId: ctx.principal.accountId, ...input }));
