import { listWebhookDeliveriesInputSchema, webhookDeliveryListSchema } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { z } from 'zod';
import type { MonitoringDeps } from '../../monitoring-deps';
import { toDelivery } from '../../repo/deliveries-repo';

const invalidCursorMessage = 'startingAfter must be the id of a delivery of this webhook (the last one of the previous page).';

/** A webhook's deliveries, newest first: status, attempts, the last response and the next attempt. */
export async function listWebhookDeliveriesHandler({
  ctx,
  input,
}: {
  ctx: Pick<MonitoringDeps, 'webhooks' | 'deliveries'>;
  input: z.infer<typeof listWebhookDeliveriesInputSchema>;
}): Promise<z.infer<typeof webhookDeliveryListSchema>> {
  if (!(await ctx.webhooks.findOwned(input.accountId, input.webhookId))) throw new AppError('WEBHOOK_NOT_FOUND');
  let after: Awaited<ReturnType<typeof ctx.deliveries.findOwned>> | undefined;
  if (input.startingAfter !== undefined) {
    after = await ctx.deliveries.findOwned(input.accountId, input.webhookId, input.startingAfter);
    if (!after) {
      throw new AppError('VALIDATION_FAILED', invalidCursorMessage, {
        issues: [{ path: 'startingAfter', message: invalidCursorMessage, code: 'invalid_cursor' }],
      });
    }
  }
  const page = await ctx.deliveries.list(input.webhookId, input.limit, after ?? undefined);
  return { deliveries: page.deliveries.map(toDelivery), hasMore: page.hasMore };
}

export const listWebhookDeliveries = (deps: MonitoringDeps) =>
  procedure
    .input(listWebhookDeliveriesInputSchema)
    .output(webhookDeliveryListSchema)
    .query(({ input }) => listWebhookDeliveriesHandler({ ctx: deps, input }));
