import { monitorRefInputSchema, monitorSchema, type Monitor } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { z } from 'zod';
import type { MonitoringDeps } from '../../monitoring-deps';
import { requireOwnedMonitor } from './require-owned-monitor';
import { toMonitor } from './to-monitor';

export async function getMonitorHandler({
  ctx,
  input,
}: {
  ctx: Pick<MonitoringDeps, 'monitors'>;
  input: z.infer<typeof monitorRefInputSchema>;
}): Promise<Monitor> {
  return toMonitor(await requireOwnedMonitor(ctx.monitors, input.accountId, input.monitorId));
}

export const getMonitor = (deps: MonitoringDeps) =>
  procedure
    .input(monitorRefInputSchema)
    .output(monitorSchema)
    .query(({ input }) => getMonitorHandler({ ctx: deps, input }));
