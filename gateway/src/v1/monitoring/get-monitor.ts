import { monitorSchema, getMonitorInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const getMonitor = protectedOperation({
  method: 'GET',
  path: '/monitors/{id}',
  operationId: 'getMonitor',
  tags: ['Monitoring'],
  summary: 'Get a monitor',
  description: 'With its schedule (`nextCheckAt`, epoch ms) and `status`: why checks are paused or backing off, if they are.',
  errorResponses: [...authenticatedErrors, 404, 422],
})
  .input(getMonitorInput)
  .output(monitorSchema)
  .query(({ ctx, input }) => ctx.services.monitoring.monitors.get.query({ accountId: ctx.principal.accountId, monitorId: input.id }));
