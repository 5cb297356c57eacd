import { monitorScheduleSchema, updateMonitorInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';
import { monitorFieldCodes } from './monitor-params';

export const updateMonitor = protectedOperation({
  method: 'PATCH',
  path: '/monitors/{id}',
  operationId: 'updateMonitor',
  tags: ['Monitoring'],
  summary: 'Change a monitor',
  description:
    'Any of `query`, `intervalMinutes`, `enabled` (at least one). Answers exactly `{intervalMinutes, enabled, nextCheckAt}`, `nextCheckAt` in epoch milliseconds. Disabling stops checks and leaves `nextCheckAt` unchanged: it then says when the next check was due when the monitor was disabled, and no check runs at it. Enabling, a new interval or a new query on an enabled monitor sets `nextCheckAt` to now + interval. A new query starts over: its first check is a baseline.',
  errorResponses: [...authenticatedErrors, 404, 422],
})
  .meta({ fieldCodes: monitorFieldCodes })
  .input(updateMonitorInput)
  .output(monitorScheduleSchema)
  .mutation(({ ctx, input: { id, ...changes } }) =>
    ctx.services.monitoring.monitors.update.mutate({ accountId: ctx.principal.accountId, monitorId: id, ...changes }),
  );
