import { type Deleted, deletedSchema, monitorRefInputSchema } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { z } from 'zod';
import type { MonitoringDeps } from '../../monitoring-deps';

/** Deletes the monitor and its check history; its notifications stay (they were delivered). */
export async function deleteMonitorHandler({
  ctx,
  input,
}: {
  ctx: Pick<MonitoringDeps, 'monitors' | 'checks'>;
  input: z.infer<typeof monitorRefInputSchema>;
}): Promise<Deleted> {
  if (!(await ctx.monitors.deleteOwned(input.accountId, input.monitorId))) throw new AppError('MONITOR_NOT_FOUND');
  await ctx.checks.deleteForMonitor(input.monitorId);
  return { id: input.monitorId, deleted: true };
}

export const deleteMonitor = (deps: MonitoringDeps) =>
  procedure
    .input(monitorRefInputSchema)
    .output(deletedSchema)
    .mutation(({ input }) => deleteMonitorHandler({ ctx: deps, input }));
