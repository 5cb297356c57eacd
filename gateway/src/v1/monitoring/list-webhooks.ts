import { z } from 'zod';
import { webhookListSchema } from '@vrs/contracts';
import { protectedProcedure } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const listWebhooks = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/webhooks',
      operationId: 'listWebhooks',
      tags: ['Monitoring'],
      summary: "List the caller's webhooks",
      description: 'Newest first, paged with `limit` and `startingAfter`. Secrets are never listed.',
      protect: true,
      errorResponses: [...authenticatedErrors, 422],
    },
    auth: { scopes: ['data:read'] },
  })
  .input(z.object({ limit: z.number().int().min(1).max(100).default(50), startingAfter: z.string().min(1).max(100).optional() }))
  .output(webhookListSchema)
  .query(({ ctx, input }) => ctx.services.monitoring.webhooks.list.query({ accountId: ctx.principal.accountId, ...input }));
