import { z } from 'zod';
import { monitorListSchema } from '@vrs/contracts';
import { protectedProcedure } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const listMonitors = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/monitors',
      operationId: 'listMonitors',
      tags: ['Monitoring'],
      summary: "List the caller's monitors",
      description:
        'Newest first. Page with `limit` and `startingAfter` (the id of the last monitor of the previous page) while `hasMore` is true.',
      protect: true,
      errorResponses: [...authenticatedErrors, 422],
    },
    auth: { scopes: ['data:read'] },
  })
  .input(z.object({ limit: z.number().int().min(1).max(100).default(50), startingAfter: z.string().min(1).max(100).optional() }))
  .output(monitorListSchema)
  .query(({ ctx, input }) => ctx.services.monitoring.monitors.list.query({ accountId: ctx.principal.accountId, ...input }));
