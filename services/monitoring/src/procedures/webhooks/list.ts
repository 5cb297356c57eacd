import { listWebhooksInputSchema, webhookListSchema } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { z } from 'zod';
import type { MonitoringDeps } from '../../monitoring-deps';
import { toWebhook } from '../../repo/webhooks-repo';

const invalidCursorMessage = 'startingAfter must be the id of one of your webhooks (the last one of the previous page).';

/** The caller's webhooks, newest first, paged like every list (ADR 0006). Secrets are never listed. */
export async function listWebhooksHandler({
  ctx,
  input,
}: {
  ctx: Pick<MonitoringDeps, 'webhooks'>;
  input: z.infer<typeof listWebhooksInputSchema>;
}): Promise<z.infer<typeof webhookListSchema>> {
  let after: Awaited<ReturnType<typeof ctx.webhooks.findOwned>> | undefined;
  if (input.startingAfter !== undefined) {
    after = await ctx.webhooks.findOwned(input.accountId, input.startingAfter);
    if (!after) {
      throw new AppError('VALIDATION_FAILED', invalidCursorMessage, {
        issues: [{ path: 'startingAfter', message: invalidCursorMessage, code: 'invalid_cursor' }],
      });
    }
  }
  const page = await ctx.webhooks.listOwned(input.accountId, input.limit, after ?? undefined);
  return { webhooks: page.webhooks.map(toWebhook), hasMore: page.hasMore };
}

export const listWebhooks = (deps: MonitoringDeps) =>
  procedure
    .input(listWebhooksInputSchema)
    .output(webhookListSchema)
    .query(({ input }) => listWebhooksHandler({ ctx: deps, input }));
