import { listMonitorChecksInputSchema, monitorCheckListSchema } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { z } from 'zod';
import type { MonitoringDeps } from '../../monitoring-deps';
import { toMonitorCheck } from '../../repo/checks-repo';
import { requireOwnedMonitor } from './require-owned-monitor';

const invalidCursorMessage = 'startingAfter must be the id of a check of this monitor (the last one of the previous page).';

/** The monitor's check history, newest first, paged like every list (ADR 0006). */
export async function listMonitorChecksHandler({
  ctx,
  input,
}: {
  ctx: Pick<MonitoringDeps, 'monitors' | 'checks'>;
  input: z.infer<typeof listMonitorChecksInputSchema>;
}): Promise<z.infer<typeof monitorCheckListSchema>> {
  await requireOwnedMonitor(ctx.monitors, input.accountId, input.monitorId);
  let after: Awaited<ReturnType<typeof ctx.checks.findOwned>> | undefined;
  if (input.startingAfter !== undefined) {
    after = await ctx.checks.findOwned(input.accountId, input.monitorId, input.startingAfter);
    if (!after) {
      throw new AppError('VALIDATION_FAILED', invalidCursorMessage, {
        issues: [{ path: 'startingAfter', message: invalidCursorMessage, code: 'invalid_cursor' }],
      });
    }
  }
  const page = await ctx.checks.list(input.monitorId, input.limit, after ?? undefined);
  return { checks: page.checks.map(toMonitorCheck), hasMore: page.hasMore };
}

export const listMonitorChecks = (deps: MonitoringDeps) =>
  procedure
    .input(listMonitorChecksInputSchema)
    .output(monitorCheckListSchema)
    .query(({ input }) => listMonitorChecksHandler({ ctx: deps, input }));
