import { z } from 'zod';
import { monitorCheckListSchema } from '@vrs/contracts';
import { protectedProcedure } from '../../trpc';
import { authenticatedErrors } from '../errors';
import { monitorIdParam } from './monitor-params';

export const listMonitorChecks = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/monitors/{id}/checks',
      operationId: 'listMonitorChecks',
      tags: ['Monitoring'],
      summary: "A monitor's check history",
      description:
        'Newest first, paged with `limit` and `startingAfter`: when (`checkedAt`, epoch ms), `outcome` (`baseline`, `unchanged`, `changed`, `failed`, `paused`), what changed, the credits charged and the notification created.',
      protect: true,
      errorResponses: [...authenticatedErrors, 404, 422],
    },
    auth: { scopes: ['data:read'] },
  })
  .input(
    z.object({
      id: monitorIdParam(),
      limit: z.number().int().min(1).max(100).default(50),
      startingAfter: z.string().min(1).max(100).optional(),
    }),
  )
  .output(monitorCheckListSchema)
  .query(({ ctx, input: { id, ...page } }) =>
    ctx.services.monitoring.monitors.listChecks.query({ accountId: ctx.principal.accountId, monitorId: id, ...page }),
  );
