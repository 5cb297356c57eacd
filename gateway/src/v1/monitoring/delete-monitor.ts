import { z } from 'zod';
import { deletedSchema } from '@vrs/contracts';
import { protectedProcedure } from '../../trpc';
import { authenticatedErrors } from '../errors';
import { monitorIdParam } from './monitor-params';

export const deleteMonitor = protectedProcedure
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/monitors/{id}',
      operationId: 'deleteMonitor',
      tags: ['Monitoring'],
      summary: 'Delete a monitor',
      description: 'Deletes the monitor and its check history; notifications it created stay.',
      protect: true,
      errorResponses: [...authenticatedErrors, 404, 422],
    },
  })
  .input(z.strictObject({ id: monitorIdParam() }))
  .output(deletedSchema)
  .mutation(({ ctx, input }) =>
    ctx.services.monitoring.monitors.delete.mutate({ accountId: ctx.principal.accountId, monitorId: input.id }),
  );
