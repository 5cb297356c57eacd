import { deletedSchema, deleteMonitorInput } from '@vrs/contracts';
import { protectedProcedure } from '../../trpc';
import { authenticatedErrors } from '../errors';

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
  .input(deleteMonitorInput)
  .output(deletedSchema)
  .mutation(({ ctx, input }) =>
    ctx.services.monitoring.monitors.delete.mutate({ accountId: ctx.principal.accountId, monitorId: input.id }),
  );
