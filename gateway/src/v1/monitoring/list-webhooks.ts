import { webhookListSchema, listWebhooksInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const listWebhooks = protectedOperation({
  method: 'GET',
  path: '/webhooks',
  operationId: 'listWebhooks',
  tags: ['Monitoring'],
  summary: "List the caller's webhooks",
  description:
    'Newest first, paged with `limit` and `cursor` (pass each page’s `nextCursor` while `hasMore` is true). Secrets are never listed.',
  errorResponses: [...authenticatedErrors, 422],
})
  .input(listWebhooksInput)
  .output(webhookListSchema)
  .query(({ ctx, input }) => ctx.services.monitoring.webhooks.list.query({ accountId: ctx.principal.accountId, ...input }));
