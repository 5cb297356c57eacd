import { createdWebhookSchema, createWebhookInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const createWebhook = protectedOperation({
  method: 'POST',
  path: '/webhooks',
  operationId: 'createWebhook',
  tags: ['Monitoring'],
  summary: 'Create a webhook',
  description:
    'Beyond the contract. Every notification of the account is POSTed to `url` as `{type: "notification.created", timestamp, data: <Notification>}`, signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`) with the `secret` answered here once. Failed deliveries (non-2xx, timeouts) are retried after 1, 2, 4, … minutes; a webhook failing too often in a row is disabled, with a notification saying so. `url` must be http(s) and must not point at loopback, private or link-local addresses (422 `WEBHOOK_URL_INVALID`).',
  errorResponses: [...authenticatedErrors, 422],
})
  .meta({ fieldCodes: { url: { invalid: 'WEBHOOK_URL_INVALID' } } })
  .input(createWebhookInput)
  .output(createdWebhookSchema)
  .mutation(({ ctx, input }) => ctx.services.monitoring.webhooks.create.mutate({ accountId: ctx.principal.accountId, ...input }));
