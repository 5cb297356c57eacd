import { randomBytes } from 'node:crypto';
import { createdWebhookSchema, createWebhookInputSchema } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { z } from 'zod';
import type { MonitoringDeps } from '../../monitoring-deps';
import { toWebhook } from '../../repo/webhooks-repo';
import { checkWebhookUrl } from '../../webhooks/target-url';

/** A webhook for every notification of the account; the signing secret is answered this once. */
export async function createWebhookHandler({
  ctx,
  input,
}: {
  ctx: Pick<MonitoringDeps, 'webhooks' | 'clock' | 'config'>;
  input: z.infer<typeof createWebhookInputSchema>;
}): Promise<z.infer<typeof createdWebhookSchema>> {
  const url = checkWebhookUrl(input.url, ctx.config.webhooks.allowPrivate);
  const webhook = await ctx.webhooks.create({
    accountId: input.accountId,
    url: url.toString(),
    description: input.description ?? null,
    secret: `whsec_${randomBytes(24).toString('base64')}`,
    createdAt: ctx.clock.now().toISOString(),
  });
  return { ...toWebhook(webhook), secret: webhook.secret };
}

export const createWebhook = (deps: MonitoringDeps) =>
  procedure
    .input(createWebhookInputSchema)
    .output(createdWebhookSchema)
    .mutation(({ input }) => createWebhookHandler({ ctx: deps, input }));
