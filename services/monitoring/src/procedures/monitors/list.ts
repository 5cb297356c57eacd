import { listMonitorsInputSchema, monitorListSchema } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { z } from 'zod';
import type { MonitoringDeps } from '../../monitoring-deps';
import { toMonitor } from './to-monitor';

const invalidCursorMessage = 'startingAfter must be the id of one of your monitors (the last one of the previous page).';

/** The caller's monitors, newest first, paged with `limit` + `startingAfter` (ADR 0006). */
export async function listMonitorsHandler({
  ctx,
  input,
}: {
  ctx: Pick<MonitoringDeps, 'monitors'>;
  input: z.infer<typeof listMonitorsInputSchema>;
}): Promise<z.infer<typeof monitorListSchema>> {
  let after: Awaited<ReturnType<typeof ctx.monitors.findOwned>> | undefined;
  if (input.startingAfter !== undefined) {
    // Unknown and foreign ids answer alike, so a cursor cannot probe for other accounts' monitors.
    after = await ctx.monitors.findOwned(input.accountId, input.startingAfter);
    if (!after) {
      throw new AppError('VALIDATION_FAILED', invalidCursorMessage, {
        issues: [{ path: 'startingAfter', message: invalidCursorMessage, code: 'invalid_cursor' }],
      });
    }
  }
  const page = await ctx.monitors.listOwned(input.accountId, input.limit, after ?? undefined);
  return { monitors: page.monitors.map(toMonitor), hasMore: page.hasMore };
}

export const listMonitors = (deps: MonitoringDeps) =>
  procedure
    .input(listMonitorsInputSchema)
    .output(monitorListSchema)
    .query(({ input }) => listMonitorsHandler({ ctx: deps, input }));
