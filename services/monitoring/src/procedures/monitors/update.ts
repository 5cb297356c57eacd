import { monitorScheduleSchema, updateMonitorInputSchema, type MonitorSchedule } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { z } from 'zod';
import type { MonitoringDeps } from '../../monitoring-deps';
import type { MonitorDoc } from '../../repo/monitors-repo';
import { requireOwnedMonitor } from './require-owned-monitor';

const emptyPatchMessage = 'Send at least one of query, intervalMinutes, enabled.';

/**
 * PATCH semantics (ADR 0027): disabling stops checks and leaves `nextCheckAt` as it was (the
 * instant the next check was due); enabling, a new interval or a new query on an enabled monitor
 * sets `nextCheckAt = now + interval`. A new query forgets the saved state (its next check is a
 * baseline) and releases any lease, so a check of the old query still in flight is dropped.
 */
export async function updateMonitorHandler({
  ctx,
  input,
}: {
  ctx: Pick<MonitoringDeps, 'monitors' | 'clock'>;
  input: z.infer<typeof updateMonitorInputSchema>;
}): Promise<MonitorSchedule> {
  const { accountId, monitorId, query, intervalMinutes, enabled } = input;
  if (query === undefined && intervalMinutes === undefined && enabled === undefined) {
    throw new AppError('VALIDATION_FAILED', emptyPatchMessage, { issues: [{ path: '', message: emptyPatchMessage }] });
  }
  const current = await requireOwnedMonitor(ctx.monitors, accountId, monitorId);
  const now = ctx.clock.now().getTime();
  const set: Partial<MonitorDoc> = {};
  const queryChanged = query !== undefined && JSON.stringify(query) !== JSON.stringify(current.query);
  const intervalChanged = intervalMinutes !== undefined && intervalMinutes !== current.intervalMinutes;
  const nextEnabled = enabled ?? current.enabled;
  const interval = intervalMinutes ?? current.intervalMinutes;
  if (queryChanged) Object.assign(set, { query, state: null, leaseUntil: 0, leaseToken: null });
  if (intervalChanged) set.intervalMinutes = interval;
  if (!nextEnabled) Object.assign(set, { enabled: false, status: 'disabled', statusReason: null });
  else {
    const enabling = !current.enabled;
    if (enabling) Object.assign(set, { enabled: true, status: 'active', statusReason: null, consecutiveFailures: 0 });
    if (enabling || queryChanged || intervalChanged) set.nextCheckAt = now + interval * 60_000;
  }
  const updated = Object.keys(set).length === 0 ? current : await ctx.monitors.updateOwned(accountId, monitorId, set);
  if (!updated) throw new AppError('MONITOR_NOT_FOUND');
  return { intervalMinutes: updated.intervalMinutes, enabled: updated.enabled, nextCheckAt: updated.nextCheckAt };
}

export const updateMonitor = (deps: MonitoringDeps) =>
  procedure
    .input(updateMonitorInputSchema)
    .output(monitorScheduleSchema)
    .mutation(({ input }) => updateMonitorHandler({ ctx: deps, input }));
