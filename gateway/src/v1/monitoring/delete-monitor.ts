import { deletedSchema, deleteMonitorInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const deleteMonitor = protectedOperation({
  method: 'DELETE',
  path: '/monitors/{id}',
  operationId: 'deleteMonitor',
  tags: ['Monitoring'],
  summary: 'Delete a monitor',
  description: 'Deletes the monitor and its check history; notifications it created stay.',
  errorResponses: [...authenticatedErrors, 404, 422],
})
  .input(deleteMonitorInput)
  .output(deletedSchema)
  .mutation(({ ctx, input }) =>
    ctx.services.monitoring.monitors.delete.mutate({ accountId: ctx.principal.accountId, monitorId: input.id }),
  );
