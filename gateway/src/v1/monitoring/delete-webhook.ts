import { deletedSchema, deleteWebhookInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const deleteWebhook = protectedOperation({
  method: 'DELETE',
  path: '/webhooks/{id}',
  operationId: 'deleteWebhook',
  tags: ['Monitoring'],
  summary: 'Delete a webhook',
  description: 'Deletes the webhook, its delivery history and its pending deliveries.',
  errorResponses: [...authenticatedErrors, 404, 422],
})
  .input(deleteWebhookInput)
  .output(deletedSchema)
  .mutation(({ ctx, input }) =>
    ctx.services.monitoring.webhooks.delete.mutate({ accountId: ctx.principal.accountId, webhookId: input.id }),
  );
