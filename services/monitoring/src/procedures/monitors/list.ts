import { listMonitorsInputSchema, type ListPage, type Monitor, monitorListSchema } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import { mapPage } from '@vrs/store';
import type { z } from 'zod';
import type { MonitoringDeps } from '../../monitoring-deps';
import { toMonitor } from './to-monitor';

/** The caller's monitors, newest first, paged with `limit` + `cursor` (ADR 0020). */
export async function listMonitorsHandler({
  ctx,
  input,
}: {
  ctx: Pick<MonitoringDeps, 'monitors'>;
  input: z.infer<typeof listMonitorsInputSchema>;
}): Promise<ListPage<Monitor>> {
  return mapPage(await ctx.monitors.listOwned(input.accountId, input), toMonitor);
}

export const listMonitors = (deps: MonitoringDeps) =>
  procedure
    .input(listMonitorsInputSchema)
    .output(monitorListSchema)
    .query(({ input }) => listMonitorsHandler({ ctx: deps, input }));
