import { type ListPage, listWebhookDeliveriesInputSchema, type WebhookDelivery, webhookDeliveryListSchema } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import { mapPage } from '@vrs/store';
import type { z } from 'zod';
import type { MonitoringDeps } from '../../monitoring-deps';
import { toDelivery } from '../../repo/deliveries-repo';

/** A webhook's deliveries, newest first (ADR 0020): status, attempts, the last response and the next attempt. */
export async function listWebhookDeliveriesHandler({
  ctx,
  input,
}: {
  ctx: Pick<MonitoringDeps, 'webhooks' | 'deliveries'>;
  input: z.infer<typeof listWebhookDeliveriesInputSchema>;
}): Promise<ListPage<WebhookDelivery>> {
  if (!(await ctx.webhooks.findOwned(input.accountId, input.webhookId))) throw new AppError('WEBHOOK_NOT_FOUND');
  return mapPage(await ctx.deliveries.listOwned(input.accountId, input.webhookId, input), toDelivery);
}

export const listWebhookDeliveries = (deps: MonitoringDeps) =>
  procedure
    .input(listWebhookDeliveriesInputSchema)
    .output(webhookDeliveryListSchema)
    .query(({ input }) => listWebhookDeliveriesHandler({ ctx: deps, input }));
