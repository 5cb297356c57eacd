import { Webhook } from 'standardwebhooks';
import { countWebhookDelivery, inSpan } from '@vrs/kit';
import { Agent, fetch } from 'undici';
import { publishNotification } from '../events/publish-notification';
import type { CheckDeps } from '../monitoring-deps';
import type { DeliveryDoc } from '../repo/deliveries-repo';
import { RefusedTargetError, refusedLiteral, refusingLookup } from './target-url';

/** Connections whose DNS answers are checked as they are connected to (ADR 0079). */
const refusingAgent = new Agent({ connect: { lookup: refusingLookup } });

/**
 * One attempt of a claimed delivery (the caller holds its lease), signed per Standard Webhooks with
 * the delivery id as `webhook-id` on every retry. Anything but a 2xx is retried after 1, 2, 4, … times
 * the base wait until the attempts run out; a webhook failing `disableAfterFailures` attempts in a row
 * is disabled and its owner notified. The signature's timestamp is the wall clock, as receivers check
 * it against theirs; the schedule follows the service clock.
 */
export async function runDelivery(deps: CheckDeps, delivery: DeliveryDoc, leaseToken: string): Promise<void> {
  const now = deps.clock.now().getTime();
  const settings = deps.config.webhooks;
  const webhook = await deps.webhooks.findById(delivery.webhookId);
  if (!webhook?.enabled) {
    await deps.deliveries.finish(delivery._id, leaseToken, {
      status: 'failed',
      nextAttemptAt: null,
      lastError: 'The webhook was disabled or deleted.',
    });
    countWebhookDelivery('dropped');
    return;
  }
  const attempts = delivery.attempts + 1;
  const outcome = await attempt(deps, webhook.url, webhook.secret, delivery);
  const status = outcome.ok ? 'succeeded' : attempts >= settings.maxAttempts ? 'failed' : 'pending';
  countWebhookDelivery(status === 'pending' ? 'retry' : status);
  await deps.deliveries.finish(delivery._id, leaseToken, {
    status,
    attempts,
    lastResponseStatus: outcome.status,
    lastError: outcome.ok ? null : outcome.error,
    nextAttemptAt: status === 'pending' ? now + settings.retryBaseMs * 2 ** (attempts - 1) : null,
  });
  if (outcome.ok) {
    await deps.webhooks.succeeded(webhook._id);
    return;
  }
  const counted = await deps.webhooks.failed(webhook._id);
  if (counted && counted.consecutiveFailures >= settings.disableAfterFailures) {
    const reason = `Disabled after ${counted.consecutiveFailures} failed delivery attempts in a row (last: ${outcome.error}).`;
    if (await deps.webhooks.disable(webhook._id, reason)) {
      await publishNotification(deps, {
        accountId: webhook.accountId,
        monitorId: null,
        kind: 'webhook_disabled',
        title: `Webhook disabled: ${webhook.url}`,
        body: reason,
        items: [],
        createdAt: new Date(now).toISOString(),
      });
    }
  }
}

async function attempt(
  deps: CheckDeps,
  rawUrl: string,
  secret: string,
  delivery: DeliveryDoc,
): Promise<{ ok: true; status: number } | { ok: false; status: number | null; error: string }> {
  const url = new URL(rawUrl);
  const allowPrivate = deps.config.webhooks.allowPrivate;
  const refused = 'The URL resolves to a loopback, private, link-local or other special-purpose address.';
  try {
    if (!allowPrivate && refusedLiteral(url)) return { ok: false, status: null, error: refused };
    const sentAt = new Date();
    // A trace of its own per attempt (ADR 0117): deliveries run from the scheduler, outside any request.
    const response = await inSpan('webhook delivery', { kind: 'client', attributes: { 'server.address': url.hostname } }, () =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': delivery._id,
          'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
          'webhook-signature': new Webhook(secret).sign(delivery._id, sentAt, delivery.payload),
        },
        body: delivery.payload,
        redirect: 'manual',
        signal: AbortSignal.timeout(deps.config.webhooks.timeoutMs),
        ...(allowPrivate ? {} : { dispatcher: refusingAgent }),
      }),
    );
    await response.body?.cancel();
    if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status };
    return { ok: false, status: response.status, error: `HTTP ${response.status}` };
  } catch (error) {
    if ((error as Error).cause instanceof RefusedTargetError) return { ok: false, status: null, error: refused };
    return { ok: false, status: null, error: (error as Error).name === 'TimeoutError' ? 'timed out' : 'could not connect' };
  }
}
