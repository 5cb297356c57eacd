import { monitorSchema, checkMonitorInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const checkMonitor = protectedOperation({
  method: 'POST',
  path: '/monitors/{id}/check',
  operationId: 'checkMonitor',
  tags: ['Monitoring'],
  summary: 'Check a monitor now',
  description:
    'Makes the monitor due now; the scheduler runs the check shortly (charged like any check). Answers 202 with the monitor; the result appears in `GET /v1/monitors/{id}/checks`. A disabled monitor answers 409 `MONITOR_DISABLED`.',
  successDescription: 'The monitor, due now.',
  errorResponses: [...authenticatedErrors, 404, 409, 422],
})
  .input(checkMonitorInput)
  .output(monitorSchema)
  .mutation(async ({ ctx, input }) => {
    const monitor = await ctx.services.monitoring.monitors.check.mutate({ accountId: ctx.principal.accountId, monitorId: input.id });
    return monitor;
  });
