import { type ListPage, listWebhooksInputSchema, type Webhook, webhookListSchema } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import { mapPage } from '@vrs/store';
import type { z } from 'zod';
import type { MonitoringDeps } from '../../monitoring-deps';
import { toWebhook } from '../../repo/webhooks-repo';

/** The caller's webhooks, newest first, paged like every list (ADR 0020). Secrets are never listed. */
export async function listWebhooksHandler({
  ctx,
  input,
}: {
  ctx: Pick<MonitoringDeps, 'webhooks'>;
  input: z.infer<typeof listWebhooksInputSchema>;
}): Promise<ListPage<Webhook>> {
  return mapPage(await ctx.webhooks.listOwned(input.accountId, input), toWebhook);
}

export const listWebhooks = (deps: MonitoringDeps) =>
  procedure
    .input(listWebhooksInputSchema)
    .output(webhookListSchema)
    .query(({ input }) => listWebhooksHandler({ ctx: deps, input }));
