import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnFreePort } from '@vrs/testing/http-server';
import { monitoringFixtureQuery, monitoringVariants } from '@vrs/testing/upstreams/youtube/author-monitoring-fixtures';
import { createWebhooksRepo } from '../../repo/webhooks-repo';
import { startMonitoring, type MonitoringHarness } from '../../testing/monitoring-harness';

interface Received {
  headers: Record<string, string>;
  body: string;
}

/** A receiver answering the given statuses in turn (the last one from then on). */
async function startReceiver(statuses: number[]) {
  const received: Received[] = [];
  const { url, close } = await listenOnFreePort((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, body });
      res.statusCode = statuses[Math.min(received.length - 1, statuses.length - 1)]!;
      res.end();
    });
  });
  return { url: `${url}/hook`, received, close };
}

/** A search monitor whose second check finds two new videos: one notification. */
async function notifyOn(h: MonitoringHarness, accountId: string) {
  h.fake.reset();
  h.at(0);
  const monitor = await h.call.monitors.create({
    accountId,
    query: { kind: 'search', q: monitoringFixtureQuery },
    intervalMinutes: 15,
    enabled: true,
  });
  await h.call.scheduler.runDue();
  h.fake.useVariant(monitoringVariants.searchLater);
  h.at(15);
  await h.call.scheduler.runDue();
  h.fake.reset();
  return monitor;
}

describe('webhooks', () => {
  let h: MonitoringHarness;
  beforeAll(async () => {
    h = await startMonitoring();
  });
  afterAll(() => h.close());

  const notify = (accountId: string) => notifyOn(h, accountId);

  it('delivers each notification signed (verified with the library), retries after a 500 with the same webhook-id', async () => {
    const receiver = await startReceiver([500, 204]);
    try {
      const accountId = await h.account('webhook');
      const created = await h.call.webhooks.create({ accountId, url: receiver.url, description: 'test receiver' });
      expect(created).toMatchObject({ enabled: true, description: 'test receiver', consecutiveFailures: 0 });
      expect(created.secret).toMatch(/^whsec_/);
      expect((await h.call.webhooks.list({ accountId, limit: 10 })).data).toEqual([
        expect.not.objectContaining({ secret: expect.anything() }),
      ]);

      await notify(accountId);
      expect(receiver.received).toHaveLength(1);
      const [first] = (await h.call.webhooks.listDeliveries({ accountId, webhookId: created.id, limit: 10 })).data;
      expect(first).toMatchObject({
        status: 'pending',
        attempts: 1,
        lastResponseStatus: 500,
        nextAttemptAt: new Date(h.clock.now().getTime() + 60_000).toISOString(),
      });

      // Not before its time; then the retry succeeds.
      await h.call.scheduler.runDue();
      expect(receiver.received).toHaveLength(1);
      h.clock.set(new Date(first!.nextAttemptAt!));
      await h.call.scheduler.runDue();
      expect(receiver.received).toHaveLength(2);
      const [delivered] = (await h.call.webhooks.listDeliveries({ accountId, webhookId: created.id, limit: 10 })).data;
      expect(delivered).toMatchObject({ status: 'succeeded', attempts: 2, lastResponseStatus: 204, nextAttemptAt: null });

      const verifier = new Webhook(created.secret);
      for (const request of receiver.received) {
        expect(request.headers['webhook-id']).toBe(first!.id);
        const payload = verifier.verify(request.body, request.headers) as { type: string; data: { id: string; kind: string } };
        expect(payload).toMatchObject({ type: 'notification.created', data: { id: first!.notificationId, kind: 'new_videos' } });
      }
      // A forged signature does not verify.
      const forged = { ...receiver.received[0]!.headers, 'webhook-signature': 'v1,AAAA' };
      expect(() => verifier.verify(receiver.received[0]!.body, forged)).toThrow();
    } finally {
      await receiver.close();
    }
  });

  it('a webhook that keeps failing is disabled, once, with a notification saying so', async () => {
    const receiver = await startReceiver([500]);
    try {
      const accountId = await h.account('webhook-failing');
      const created = await h.call.webhooks.create({ accountId, url: receiver.url });
      await notify(accountId);
      // Attempts at +0, +1 and +2 minutes: three failures in a row disable it (the harness's threshold).
      for (const minutes of [16, 18]) {
        h.at(minutes);
        await h.call.scheduler.runDue();
      }
      expect(receiver.received).toHaveLength(3);
      const [webhook] = (await h.call.webhooks.list({ accountId, limit: 10 })).data;
      expect(webhook).toMatchObject({ id: created.id, enabled: false, consecutiveFailures: 3 });
      expect(webhook!.disabledReason).toMatch(/^Disabled after 3 failed delivery attempts/);
      const kinds = (await h.call.notifications.list({ accountId })).notifications.map((n) => n.kind);
      expect(kinds).toEqual(['webhook_disabled', 'new_videos']);
      // Its pending delivery is given up, not retried.
      h.at(60);
      await h.call.scheduler.runDue();
      expect(receiver.received).toHaveLength(3);
      const [delivery] = (await h.call.webhooks.listDeliveries({ accountId, webhookId: created.id, limit: 10 })).data;
      expect(delivery).toMatchObject({ status: 'failed', lastError: 'The webhook was disabled or deleted.' });
    } finally {
      await receiver.close();
    }
  });

  it('a digest for the webhook channel only is delivered and saved already read', async () => {
    const receiver = await startReceiver([200]);
    try {
      const accountId = await h.account('webhook-digest');
      const webhook = await h.call.webhooks.create({ accountId, url: receiver.url });
      h.at(0);
      await h.call.digests.putPreferences({ accountId, frequency: 'daily', hourOfDay: 13, timezone: 'UTC', channels: ['webhook'] });
      await notify(accountId);
      h.clock.set(new Date(Date.parse('2026-01-20T13:00:00Z')));
      await h.call.scheduler.runDue();
      const [digest] = (await h.call.notifications.list({ accountId })).notifications;
      expect(digest).toMatchObject({ kind: 'digest', read: true });
      const payloads = receiver.received.map(
        (request) => new Webhook(webhook.secret).verify(request.body, request.headers) as { data: { kind: string } },
      );
      expect(payloads.map((payload) => payload.data.kind)).toEqual(['new_videos', 'digest']);
    } finally {
      await receiver.close();
    }
  });

  it('webhooks and their deliveries page newest first with limit + cursor; a cursor of another list is INVALID_CURSOR', async () => {
    const receiver = await startReceiver([204]);
    try {
      const accountId = await h.account('webhook-pages');
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        h.at(i);
        ids.push((await h.call.webhooks.create({ accountId, url: receiver.url })).id);
      }
      const first = await h.call.webhooks.list({ accountId, limit: 2 });
      expect(first.data.map((webhook) => webhook.id)).toEqual([ids[2], ids[1]]);
      expect(first).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
      const second = await h.call.webhooks.list({ accountId, limit: 2, cursor: first.nextCursor! });
      expect(second).toMatchObject({ data: [{ id: ids[0] }], hasMore: false, nextCursor: null });

      await notify(accountId);
      await notify(accountId);
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 2; page++) {
        const deliveries = await h.call.webhooks.listDeliveries({ accountId, webhookId: ids[0]!, limit: 1, cursor });
        expect(deliveries).toMatchObject({ hasMore: page === 0 });
        seen.push(...deliveries.data.map((delivery) => delivery.id));
        cursor = deliveries.nextCursor ?? undefined;
      }
      expect(cursor).toBeUndefined();
      expect(new Set(seen).size).toBe(2);
      await expect(
        h.call.webhooks.listDeliveries({ accountId, webhookId: ids[0]!, limit: 1, cursor: first.nextCursor! }),
      ).rejects.toMatchObject({ cause: { code: 'INVALID_CURSOR' } });
    } finally {
      await receiver.close();
    }
  });

  it("another account's webhook is a 404; deleting removes it", async () => {
    const accountId = await h.account('webhook-owner');
    const other = await h.account('webhook-other');
    const created = await h.call.webhooks.create({ accountId, url: 'https://example.com/hook' });
    await expect(h.call.webhooks.delete({ accountId: other, webhookId: created.id })).rejects.toMatchObject({
      cause: { code: 'WEBHOOK_NOT_FOUND' },
    });
    await expect(h.call.webhooks.listDeliveries({ accountId: other, webhookId: created.id, limit: 10 })).rejects.toMatchObject({
      cause: { code: 'WEBHOOK_NOT_FOUND' },
    });
    expect(await h.call.webhooks.delete({ accountId, webhookId: created.id })).toEqual({ id: created.id, deleted: true });
    expect((await h.call.webhooks.list({ accountId, limit: 10 })).data).toEqual([]);
  });
});

describe('webhooks where private targets are refused (production)', () => {
  let h: MonitoringHarness;
  beforeAll(async () => {
    h = await startMonitoring({ config: { webhooks: { allowPrivate: false } } });
  });
  afterAll(() => h.close());

  it('an IPv4-mapped loopback target is refused at creation and, stored before, receives nothing at delivery', async () => {
    const receiver = await startReceiver([200]);
    try {
      const accountId = await h.account('webhook-mapped');
      const mapped = receiver.url.replace('127.0.0.1', '[::ffff:127.0.0.1]');
      for (const url of [mapped, receiver.url.replace('127.0.0.1', '[::ffff:7f00:1]'), receiver.url.replace('127.0.0.1', 'localhost')]) {
        await expect(h.call.webhooks.create({ accountId, url }), url).rejects.toMatchObject({
          cause: { code: 'WEBHOOK_URL_INVALID', status: 422 },
        });
      }
      // Webhooks stored before this check (or while private targets were allowed) are checked again at delivery.
      const repo = createWebhooksRepo(h.store);
      const createdAt = h.clock.now().toISOString();
      const stored = [
        await repo.create({ accountId, url: mapped, description: null, secret: 'whsec_AAAA', createdAt }),
        await repo.create({
          accountId,
          url: receiver.url.replace('127.0.0.1', 'localhost'),
          description: null,
          secret: 'whsec_AAAA',
          createdAt,
        }),
      ];
      await notifyOn(h, accountId);
      expect(receiver.received).toHaveLength(0);
      for (const webhook of stored) {
        const [delivery] = (await h.call.webhooks.listDeliveries({ accountId, webhookId: webhook._id, limit: 10 })).data;
        expect(delivery).toMatchObject({
          attempts: 1,
          lastResponseStatus: null,
          lastError: expect.stringMatching(/special-purpose address/),
        });
      }
    } finally {
      await receiver.close();
    }
  });
});
