import { createMonitorInputSchema, monitorSchema, type Monitor } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { z } from 'zod';
import type { MonitoringDeps } from '../../monitoring-deps';
import { toMonitor } from './to-monitor';

/**
 * An enabled monitor is due at once: its first check saves the baseline (nothing is notified for
 * what is already there). A disabled one keeps `now + interval` until it is enabled.
 */
export async function createMonitorHandler({
  ctx,
  input,
}: {
  ctx: Pick<MonitoringDeps, 'monitors' | 'clock' | 'scheduler'>;
  input: z.infer<typeof createMonitorInputSchema>;
}): Promise<Monitor> {
  const now = ctx.clock.now();
  const monitor = await ctx.monitors.create({
    accountId: input.accountId,
    query: input.query,
    intervalMinutes: input.intervalMinutes,
    enabled: input.enabled,
    nextCheckAt: input.enabled ? now.getTime() : now.getTime() + input.intervalMinutes * 60_000,
    createdAt: now.toISOString(),
  });
  if (monitor.enabled) ctx.scheduler.wake();
  return toMonitor(monitor);
}

export const createMonitor = (deps: MonitoringDeps) =>
  procedure
    .input(createMonitorInputSchema)
    .output(monitorSchema)
    .mutation(({ input }) => createMonitorHandler({ ctx: deps, input }));
