import { deletedSchema, deleteWebhookInput } from '@vrs/contracts';
import { protectedProcedure } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const deleteWebhook = protectedProcedure
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/webhooks/{id}',
      operationId: 'deleteWebhook',
      tags: ['Monitoring'],
      summary: 'Delete a webhook',
      description: 'Deletes the webhook, its delivery history and its pending deliveries.',
      protect: true,
      errorResponses: [...authenticatedErrors, 404, 422],
    },
  })
  .input(deleteWebhookInput)
  .output(deletedSchema)
  .mutation(({ ctx, input }) =>
    ctx.services.monitoring.webhooks.delete.mutate({ accountId: ctx.principal.accountId, webhookId: input.id }),
  );
