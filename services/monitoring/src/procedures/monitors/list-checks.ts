import { type ListPage, listMonitorChecksInputSchema, type MonitorCheck, monitorCheckListSchema } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import { mapPage } from '@vrs/store';
import type { z } from 'zod';
import type { MonitoringDeps } from '../../monitoring-deps';
import { toMonitorCheck } from '../../repo/checks-repo';
import { requireOwnedMonitor } from './require-owned-monitor';

/** The monitor's check history, newest first, paged like every list (ADR 0020). */
export async function listMonitorChecksHandler({
  ctx,
  input,
}: {
  ctx: Pick<MonitoringDeps, 'monitors' | 'checks'>;
  input: z.infer<typeof listMonitorChecksInputSchema>;
}): Promise<ListPage<MonitorCheck>> {
  await requireOwnedMonitor(ctx.monitors, input.accountId, input.monitorId);
  return mapPage(await ctx.checks.listOwned(input.accountId, input.monitorId, input), toMonitorCheck);
}

export const listMonitorChecks = (deps: MonitoringDeps) =>
  procedure
    .input(listMonitorChecksInputSchema)
    .output(monitorCheckListSchema)
    .query(({ input }) => listMonitorChecksHandler({ ctx: deps, input }));
