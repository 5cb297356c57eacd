import { webhookDeliveryListSchema, listWebhookDeliveriesInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const listWebhookDeliveries = protectedOperation({
  method: 'GET',
  path: '/webhooks/{id}/deliveries',
  operationId: 'listWebhookDeliveries',
  tags: ['Monitoring'],
  summary: "A webhook's deliveries",
  description:
    'Newest first, paged with `limit` and `cursor` (pass each page’s `nextCursor` while `hasMore` is true): `status` (`pending`, `succeeded`, `failed`), attempts, the last response status or error, and `nextAttemptAt` (ISO 8601) while pending.',
  errorResponses: [...authenticatedErrors, 404, 422],
})
  .input(listWebhookDeliveriesInput)
  .output(webhookDeliveryListSchema)
  .query(({ ctx, input: { id, ...page } }) =>
    ctx.services.monitoring.webhooks.listDeliveries.query({ accountId: ctx.principal.accountId, webhookId: id, ...page }),
  );
