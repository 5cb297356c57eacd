import { type Deleted, deletedSchema, webhookRefInputSchema } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { z } from 'zod';
import type { MonitoringDeps } from '../../monitoring-deps';

/** Deletes the webhook and its delivery history; pending deliveries go with it. */
export async function deleteWebhookHandler({
  ctx,
  input,
}: {
  ctx: Pick<MonitoringDeps, 'webhooks' | 'deliveries'>;
  input: z.infer<typeof webhookRefInputSchema>;
}): Promise<Deleted> {
  if (!(await ctx.webhooks.deleteOwned(input.accountId, input.webhookId))) throw new AppError('WEBHOOK_NOT_FOUND');
  await ctx.deliveries.deleteForWebhook(input.webhookId);
  return { id: input.webhookId, deleted: true };
}

export const deleteWebhook = (deps: MonitoringDeps) =>
  procedure
    .input(webhookRefInputSchema)
    .output(deletedSchema)
    .mutation(({ input }) => deleteWebhookHandler({ ctx: deps, input }));
