import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ListPage, Monitor, MonitorCheck, Notification } from '@vrs/contracts';
import { createServiceClient } from '@vrs/kit';
import type { MonitoringRouter } from '@vrs/monitoring';
import { apiClient } from '@vrs/testing/api-client';
import { listenOnFreePort } from '@vrs/testing/http-server';
import {
  monitoringChannelNewId,
  monitoringFixtureChannel,
  monitoringFixtureQuery,
  monitoringFixtureTopic,
  monitoringFixtureVideo,
  monitoringNewComment,
  monitoringPlaylistNew,
  monitoringSearchNewIds,
  monitoringTopicBreakoutId,
  monitoringVariants,
  monitoringVideoLaterComments,
} from '@vrs/testing/upstreams/youtube/author-monitoring-fixtures';
import { fakeYouTubeControl } from '@vrs/testing/upstreams/youtube/control-client';

/*
 * Monitoring through the gateway, over the stack's monitoring process and the fake YouTube's
 * authored monitoring pages. One file, run in order: the monitoring process has one clock. Topic
 * checks read the authored monitoring topic, not the trends suite's, so its snapshots stay its own;
 * its bands do not depend on the trends clock that suite moves (scheduler.test.ts checks both).
 */
const youtube = fakeYouTubeControl(inject('youtubeUpstreamUrl'));
const monitoring = createServiceClient<MonitoringRouter>({
  mode: 'http',
  url: inject('monitoringServiceUrl'),
  internalToken: inject('stackEnv').INTERNAL_TOKEN!,
  timeoutMs: 30_000,
  caller: 'e2e',
});
const user = `monitoring-${Date.now()}`;
const api = apiClient(inject('gatewayUrl'), { 'x-demo-user': user });
const stranger = apiClient(inject('gatewayUrl'), { 'x-demo-user': `${user}-stranger` });

const t0 = Date.parse('2026-03-01T09:00:00.000Z');
const minute = 60_000;
const at = (minutes: number) => monitoring.clock.set.mutate({ now: t0 + minutes * minute });
const runDue = () => monitoring.scheduler.runDue.mutate();
const notifications = async (): Promise<Notification[]> => {
  const response = await api<{ notifications: Notification[] }>('GET', '/v1/notifications');
  expect(response.status, response.text).toBe(200);
  return response.body.notifications;
};
const checksOf = async (monitor: Monitor): Promise<MonitorCheck[]> => {
  const response = await api<ListPage<MonitorCheck>>('GET', `/v1/monitors/${monitor.id}/checks`);
  expect(response.status, response.text).toBe(200);
  return response.body.data;
};
const create = async (body: unknown): Promise<Monitor> => {
  const response = await api<Monitor>('POST', '/v1/monitors', { json: body });
  expect(response.status, response.text).toBe(200);
  return response.body;
};

beforeAll(async () => {
  await at(0);
});
afterAll(async () => {
  for (const variant of Object.values(monitoringVariants)) await youtube.dropVariant(variant);
  await monitoring.clock.set.mutate({ now: null });
});

describe('monitors over HTTP', () => {
  let search: Monitor;
  let channel: Monitor;
  let video: Monitor;
  let topic: Monitor;

  it('creates one monitor of each kind (200, the project create convention); enabled ones are due now', async () => {
    search = await create({ query: { kind: 'search', q: monitoringFixtureQuery }, intervalMinutes: 60 });
    channel = await create({ query: { kind: 'channel', id: monitoringFixtureChannel.id }, intervalMinutes: 60 });
    video = await create({ query: { kind: 'video', id: monitoringFixtureVideo.id }, intervalMinutes: 60 });
    topic = await create({ query: { kind: 'topic', q: 'espresso', sampleSize: 8 }, intervalMinutes: 1440, enabled: false });
    expect(search).toMatchObject({ enabled: true, nextCheckAt: t0, status: 'active', lastCheckedAt: null, intervalMinutes: 60 });
    expect(topic).toMatchObject({
      enabled: false,
      status: 'disabled',
      nextCheckAt: t0 + 1440 * minute,
      query: { kind: 'topic', q: 'espresso' },
    });
    const list = await api<ListPage<Monitor>>('GET', '/v1/monitors?limit=3');
    expect(list.body).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    expect(list.body.data.map((monitor) => monitor.id)).toEqual([topic.id, video.id, channel.id]);
    const rest = await api<ListPage<Monitor>>('GET', `/v1/monitors?limit=3&cursor=${list.body.nextCursor}`);
    expect(rest.body).toEqual({ data: [expect.objectContaining({ id: search.id })], hasMore: false, nextCursor: null });
    // The old convention is refused by name (strict parameters), and an id is not a cursor.
    for (const query of [`startingAfter=${channel.id}`, `cursor=${channel.id}`]) {
      const refused = await api('GET', `/v1/monitors?${query}`);
      expect(refused.status, query).toBe(422);
    }
    expect((await api('GET', `/v1/monitors?cursor=${channel.id}`)).body.error.code).toBe('INVALID_CURSOR');
  });

  it('the first checks are baselines, an unchanged upstream notifies nothing', async () => {
    await runDue();
    await at(60);
    await runDue();
    expect(await notifications()).toEqual([]);
    expect((await checksOf(search)).map((check) => check.outcome)).toEqual(['unchanged', 'baseline']);
    expect((await checksOf(topic)).map((check) => check.outcome)).toEqual([]);
  });

  it('after the upstream changes, exactly what changed is notified, once', async () => {
    await youtube.useVariant(monitoringVariants.searchLater);
    await youtube.useVariant(monitoringVariants.channelLater);
    await youtube.useVariant(monitoringVariants.videoComments);
    await at(120);
    await runDue();
    const found = await notifications();
    const byMonitor = (monitor: Monitor) => found.filter((notification) => notification.monitorId === monitor.id);
    expect(found).toHaveLength(3);
    expect(byMonitor(search)).toMatchObject([{ kind: 'new_videos', read: false }]);
    expect(
      byMonitor(search)[0]!
        .data.items.map((item) => item.id)
        .sort(),
    ).toEqual([...monitoringSearchNewIds].sort());
    expect(byMonitor(channel)).toMatchObject([
      {
        kind: 'new_uploads',
        data: { items: [{ id: monitoringChannelNewId, url: `https://www.youtube.com/watch?v=${monitoringChannelNewId}` }] },
      },
    ]);
    expect(byMonitor(video)).toMatchObject([
      {
        kind: 'video_activity',
        data: {
          items: [
            {
              id: monitoringFixtureVideo.id,
              commentCount: monitoringVideoLaterComments,
              previousCommentCount: monitoringFixtureVideo.comments,
            },
          ],
        },
      },
    ]);
    expect(found.every((notification) => notification.createdAt === new Date(t0 + 120 * minute).toISOString())).toBe(true);
    // The same upstream again: nothing new.
    await at(180);
    await runDue();
    expect(await notifications()).toHaveLength(3);
    const checks = await checksOf(search);
    expect(checks.map((check) => check.outcome)).toEqual(['unchanged', 'changed', 'unchanged', 'baseline']);
    expect(checks[1]).toMatchObject({
      creditsCharged: 2,
      notificationId: byMonitor(search)[0]!.id,
      checkedAt: new Date(t0 + 120 * minute).toISOString(),
    });
  });

  it('a new playlist on the channel and a new comment on the video: one notification each, once', async () => {
    await youtube.useVariant(monitoringVariants.channelPlaylistLater);
    await youtube.useVariant(monitoringVariants.videoNewComment);
    // Checked now (still 180): the schedule of the other monitors, which later tests rely on, stays as it is.
    for (const monitor of [channel, video]) expect((await api('POST', `/v1/monitors/${monitor.id}/check`)).status).toBe(202);
    await runDue();
    const found = (await notifications()).filter((notification) => notification.createdAt === new Date(t0 + 180 * minute).toISOString());
    const comment = monitoringNewComment();
    expect(found).toHaveLength(2);
    expect(found.find((notification) => notification.monitorId === channel.id)).toMatchObject({
      kind: 'new_playlists',
      data: { items: [{ type: 'playlist', id: monitoringPlaylistNew.id, title: monitoringPlaylistNew.title }] },
    });
    expect(found.find((notification) => notification.monitorId === video.id)).toMatchObject({
      kind: 'new_comments',
      data: {
        items: [
          {
            type: 'comment',
            id: comment.id,
            url: `https://www.youtube.com/watch?v=${monitoringFixtureVideo.id}&lc=${comment.id}`,
            author: expect.any(String),
            text: expect.any(String),
          },
        ],
      },
    });
    // getVideo (2) + one newest-first comments page (3).
    expect((await checksOf(video))[0]).toMatchObject({ outcome: 'changed', creditsCharged: 5 });
    // Checked again with nothing new: no more notifications.
    for (const monitor of [channel, video]) await api('POST', `/v1/monitors/${monitor.id}/check`);
    await runDue();
    expect(await notifications()).toHaveLength(5);
    expect((await checksOf(channel)).slice(0, 2).map((check) => check.outcome)).toEqual(['unchanged', 'changed']);
  });

  it('PATCH answers exactly {intervalMinutes, enabled, nextCheckAt}: disabling keeps nextCheckAt, enabling sets now + interval', async () => {
    const disabled = await api('PATCH', `/v1/monitors/${search.id}`, { json: { enabled: false } });
    expect(disabled.status, disabled.text).toBe(200);
    expect(disabled.body).toEqual({ intervalMinutes: 60, enabled: false, nextCheckAt: t0 + 240 * minute });
    await at(300);
    await runDue();
    expect(await checksOf(search)).toHaveLength(4);
    const enabled = await api('PATCH', `/v1/monitors/${search.id}`, { json: { enabled: true, intervalMinutes: 30 } });
    expect(enabled.body).toEqual({ intervalMinutes: 30, enabled: true, nextCheckAt: t0 + 330 * minute });
    const empty = await api('PATCH', `/v1/monitors/${search.id}`, { json: {} });
    expect(empty.status).toBe(422);
    expect(empty.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('check now answers 202 and the check runs; a disabled monitor answers 409', async () => {
    const response = await api<Monitor>('POST', `/v1/monitors/${channel.id}/check`);
    expect(response.status, response.text).toBe(202);
    expect(response.body).toMatchObject({ id: channel.id, nextCheckAt: t0 + 300 * minute });
    await runDue();
    expect((await checksOf(channel))[0]).toMatchObject({ outcome: 'unchanged', checkedAt: new Date(t0 + 300 * minute).toISOString() });
    const disabled = await api('POST', `/v1/monitors/${topic.id}/check`);
    expect(disabled.status).toBe(409);
    expect(disabled.body.error.code).toBe('MONITOR_DISABLED');
  });

  it('marks a notification read, idempotently', async () => {
    const [first] = await notifications();
    for (let i = 0; i < 2; i++) {
      const read = await api('POST', `/v1/notifications/${first!.id}/read`);
      expect(read.status, read.text).toBe(200);
      expect(read.body).toEqual({ read: true });
    }
    expect((await notifications()).find((notification) => notification.id === first!.id)).toMatchObject({ read: true });
  });

  it("another user's monitors and notifications are 404s", async () => {
    const [first] = await notifications();
    const attempts = [
      stranger('GET', `/v1/monitors/${search.id}`),
      stranger('PATCH', `/v1/monitors/${search.id}`, { json: { enabled: false } }),
      stranger('DELETE', `/v1/monitors/${search.id}`),
      stranger('POST', `/v1/monitors/${search.id}/check`),
      stranger('GET', `/v1/monitors/${search.id}/checks`),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status, response.text).toBe(404);
      expect(response.body.error.code).toBe('MONITOR_NOT_FOUND');
    }
    const read = await stranger('POST', `/v1/notifications/${first!.id}/read`);
    expect(read.status).toBe(404);
    expect(read.body.error.code).toBe('NOTIFICATION_NOT_FOUND');
    expect((await stranger('GET', '/v1/notifications')).body).toEqual({ notifications: [] });
    expect((await stranger('GET', '/v1/monitors')).body).toEqual({ data: [], hasMore: false, nextCursor: null });
  });

  it('bad bodies are 422s with precise codes and paths', async () => {
    const cases: [unknown, string, string][] = [
      [{ intervalMinutes: 60 }, 'MONITOR_QUERY_REQUIRED', 'query'],
      [{ query: { kind: 'search', q: 'x' }, intervalMinutes: 5 }, 'MONITOR_INTERVAL_INVALID', 'intervalMinutes'],
      [{ query: { kind: 'search', q: 'x' }, intervalMinutes: 10_081 }, 'MONITOR_INTERVAL_INVALID', 'intervalMinutes'],
      [{ query: { kind: 'search', q: 'x' } }, 'MONITOR_INTERVAL_INVALID', 'intervalMinutes'],
      [{ query: { kind: 'podcast', q: 'x' }, intervalMinutes: 60 }, 'VALIDATION_FAILED', 'query.kind'],
      [{ query: { kind: 'search', q: '  ' }, intervalMinutes: 60 }, 'VALIDATION_FAILED', 'query.q'],
      [{ query: { kind: 'topic', q: 'x', sampleSize: 3 }, intervalMinutes: 60 }, 'VALIDATION_FAILED', 'query.sampleSize'],
      [{ query: { kind: 'video' }, intervalMinutes: 60 }, 'VALIDATION_FAILED', 'query.id'],
      [{ query: { kind: 'search', q: 'x' }, intervalMinutes: 60.5 }, 'MONITOR_INTERVAL_INVALID', 'intervalMinutes'],
    ];
    for (const [body, code, path] of cases) {
      const response = await api('POST', '/v1/monitors', { json: body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.error.code, JSON.stringify(body)).toBe(code);
      expect(response.body.error.details.issues.map((issue: { path: string }) => issue.path)).toContain(path);
    }
    const patch = await api('PATCH', `/v1/monitors/${search.id}`, { json: { intervalMinutes: 14 } });
    expect(patch.status).toBe(422);
    expect(patch.body.error.code).toBe('MONITOR_INTERVAL_INVALID');
  });

  it('deletes a monitor: 200 {id, deleted}, then 404', async () => {
    const deleted = await api('DELETE', `/v1/monitors/${video.id}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toEqual({ id: video.id, deleted: true });
    expect((await api('GET', `/v1/monitors/${video.id}`)).status).toBe(404);
    expect((await api('DELETE', `/v1/monitors/${video.id}`)).status).toBe(404);
  });

  it('digest preferences: validated, and a digest of the unread notifications at the chosen local hour', async () => {
    expect((await api('GET', '/v1/digests/preferences')).body).toEqual({
      frequency: 'off',
      hourOfDay: 9,
      timezone: 'UTC',
      channels: ['in_app'],
      nextDigestAt: null,
    });
    const valid = { frequency: 'daily', hourOfDay: 10, timezone: 'Asia/Kolkata', channels: ['in_app'] };
    const invalid: [unknown, string, string][] = [
      [{ ...valid, timezone: 'Mars/Olympus' }, 'TIMEZONE_INVALID', 'timezone'],
      [{ ...valid, timezone: '+05:30' }, 'TIMEZONE_INVALID', 'timezone'],
      [{ ...valid, hourOfDay: 24 }, 'VALIDATION_FAILED', 'hourOfDay'],
      [{ ...valid, frequency: 'hourly' }, 'VALIDATION_FAILED', 'frequency'],
      [{ ...valid, channels: [] }, 'VALIDATION_FAILED', 'channels'],
    ];
    for (const [body, code, path] of invalid) {
      const response = await api('PUT', '/v1/digests/preferences', { json: body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.error.code, JSON.stringify(body)).toBe(code);
      expect(response.body.error.details.issues.map((issue: { path: string }) => issue.path)).toContain(path);
    }
    // Now is 14:00 UTC (19:30 in Kolkata): the next 10:00 there is 04:30 UTC tomorrow.
    const nextDigestAt = Date.parse('2026-03-02T04:30:00.000Z');
    const saved = await api('PUT', '/v1/digests/preferences', { json: valid });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toEqual({ ...valid, nextDigestAt: new Date(nextDigestAt).toISOString() });
    expect((await api('GET', '/v1/digests/preferences')).body).toEqual({ ...valid, nextDigestAt: new Date(nextDigestAt).toISOString() });

    const unread = (await notifications()).filter((notification) => !notification.read);
    await monitoring.clock.set.mutate({ now: nextDigestAt });
    await runDue();
    const [digest] = await notifications();
    expect(digest).toMatchObject({
      kind: 'digest',
      monitorId: null,
      title: `Daily digest: ${unread.length} unread notifications`,
      createdAt: new Date(nextDigestAt).toISOString(),
    });
    expect(digest!.data.items.map((item) => item.id).sort()).toEqual(unread.flatMap((n) => n.data.items.map((item) => item.id)).sort());
    expect((await api('GET', '/v1/digests/preferences')).body.nextDigestAt).toBe(new Date(nextDigestAt + 24 * 3_600_000).toISOString());
  });

  it('webhooks: a signed delivery of a new notification, retried after a 500; 422 for bad URLs; 404 for others', async () => {
    const received: { headers: Record<string, string>; body: string }[] = [];
    const receiver = await listenOnFreePort((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        received.push({ headers: req.headers as Record<string, string>, body });
        res.statusCode = received.length === 1 ? 500 : 200;
        res.end();
      });
    });
    try {
      const url = `${receiver.url}/hook`;
      for (const bad of ['ftp://example.com/x', 'not a url']) {
        const response = await api('POST', '/v1/webhooks', { json: { url: bad } });
        expect(response.status, bad).toBe(422);
        expect(response.body.error.code).toBe('WEBHOOK_URL_INVALID');
      }
      const created = await api('POST', '/v1/webhooks', { json: { url, description: 'e2e' } });
      expect(created.status, created.text).toBe(200);
      expect(created.body.secret).toMatch(/^whsec_/);
      const listed = await api('GET', '/v1/webhooks');
      expect(listed.body).toEqual({
        data: [expect.objectContaining({ id: created.body.id, enabled: true })],
        hasMore: false,
        nextCursor: null,
      });
      expect(JSON.stringify(listed.body)).not.toContain('whsec_');

      // A new search result: one notification, one delivery (first answered 500, then retried).
      await youtube.dropVariant(monitoringVariants.searchLater);
      const monitor = await create({ query: { kind: 'search', q: monitoringFixtureQuery }, intervalMinutes: 15 });
      await runDue();
      await youtube.useVariant(monitoringVariants.searchLater);
      const now = (await monitoring.clock.set.mutate({ now: Date.parse('2026-03-02T05:00:00.000Z') })).now;
      await api('POST', `/v1/monitors/${monitor.id}/check`);
      await runDue();
      const deliveries = async () => (await api('GET', `/v1/webhooks/${created.body.id}/deliveries`)).body.data;
      const [pending] = await deliveries();
      expect(pending).toMatchObject({
        status: 'pending',
        attempts: 1,
        lastResponseStatus: 500,
        nextAttemptAt: new Date(now + 60_000).toISOString(),
      });
      await monitoring.clock.set.mutate({ now: now + 60_000 });
      await runDue();
      expect((await deliveries())[0]).toMatchObject({ id: pending.id, status: 'succeeded', attempts: 2, lastResponseStatus: 200 });
      expect(received).toHaveLength(2);
      for (const request of received) {
        const payload = new Webhook(created.body.secret).verify(request.body, request.headers) as { data: Notification };
        expect(payload.data).toMatchObject({ monitorId: monitor.id, kind: 'new_videos' });
        expect(request.headers['webhook-id']).toBe(pending.id);
      }

      expect((await stranger('GET', `/v1/webhooks/${created.body.id}/deliveries`)).status).toBe(404);
      const foreignDelete = await stranger('DELETE', `/v1/webhooks/${created.body.id}`);
      expect(foreignDelete.status).toBe(404);
      expect(foreignDelete.body.error.code).toBe('WEBHOOK_NOT_FOUND');
      expect((await api('DELETE', `/v1/webhooks/${created.body.id}`)).body).toEqual({ id: created.body.id, deleted: true });
      expect((await api('GET', '/v1/webhooks')).body).toEqual({ data: [], hasMore: false, nextCursor: null });
    } finally {
      await receiver.close();
    }
  });
});

describe('topic monitors over HTTP', () => {
  const watcher = apiClient(inject('gatewayUrl'), { 'x-demo-user': `${user}-topic` });
  const topicT0 = Date.parse('2026-03-03T09:00:00.000Z');
  const atHour = (hours: number) => monitoring.clock.set.mutate({ now: topicT0 + hours * 60 * minute });
  const ownNotifications = async () => (await watcher<{ notifications: Notification[] }>('GET', '/v1/notifications')).body.notifications;

  it('notifies a new Breakout video of the topic once, and nothing while the report is the same', async () => {
    await atHour(0);
    const created = await watcher<Monitor>('POST', '/v1/monitors', {
      json: { query: { kind: 'topic', q: monitoringFixtureTopic, sampleSize: 8 }, intervalMinutes: 60 },
    });
    expect(created.status, created.text).toBe(200);
    const monitor = created.body;
    await runDue();
    await atHour(1);
    await runDue();
    expect(await ownNotifications()).toEqual([]);

    await youtube.useVariant(monitoringVariants.topicBreakout);
    await atHour(2);
    await runDue();
    await atHour(3);
    await runDue();
    const found = await ownNotifications();
    expect(found).toMatchObject([
      {
        monitorId: monitor.id,
        kind: 'trend_videos',
        createdAt: new Date(topicT0 + 120 * minute).toISOString(),
        data: { items: [{ type: 'video', id: monitoringTopicBreakoutId, trendBand: 'Breakout' }] },
      },
    ]);
    expect(found[0]!.data.items).toHaveLength(1);
    const checks = await watcher<ListPage<MonitorCheck>>('GET', `/v1/monitors/${monitor.id}/checks`);
    expect(checks.body.data.map((check) => [check.outcome, check.creditsCharged])).toEqual([
      ['unchanged', 10],
      ['changed', 10],
      ['unchanged', 10],
      ['baseline', 10],
    ]);
    expect((await watcher('DELETE', `/v1/monitors/${monitor.id}`)).status).toBe(200);
  }, 90_000); // four trend reports, each reading every sampled video and channel
});
