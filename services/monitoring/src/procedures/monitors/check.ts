import { monitorRefInputSchema, monitorSchema, type Monitor } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { z } from 'zod';
import type { MonitoringDeps } from '../../monitoring-deps';
import { requireOwnedMonitor } from './require-owned-monitor';
import { toMonitor } from './to-monitor';

/**
 * "Check now": makes the monitor due (`nextCheckAt = now`) and wakes the scheduler, which claims
 * it like any due monitor — so a forced check also runs once across replicas. Answers at once (202).
 */
export async function checkMonitorHandler({
  ctx,
  input,
}: {
  ctx: Pick<MonitoringDeps, 'monitors' | 'clock' | 'scheduler'>;
  input: z.infer<typeof monitorRefInputSchema>;
}): Promise<Monitor> {
  const monitor = await requireOwnedMonitor(ctx.monitors, input.accountId, input.monitorId);
  if (!monitor.enabled) throw new AppError('MONITOR_DISABLED');
  const due = await ctx.monitors.updateOwned(input.accountId, input.monitorId, { nextCheckAt: ctx.clock.now().getTime() });
  if (!due) throw new AppError('MONITOR_NOT_FOUND');
  ctx.scheduler.wake();
  return toMonitor(due);
}

export const checkMonitor = (deps: MonitoringDeps) =>
  procedure
    .input(monitorRefInputSchema)
    .output(monitorSchema)
    .mutation(({ input }) => checkMonitorHandler({ ctx: deps, input }));
