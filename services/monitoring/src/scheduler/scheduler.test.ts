import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Monitor, Notification } from '@vrs/contracts';
import {
  monitoringChannelNewId,
  monitoringFixtureChannel,
  monitoringFixtureQuery,
  monitoringFixtureTopic,
  monitoringCommentsToken,
  monitoringFixtureVideo,
  monitoringNewComment,
  monitoringPlaylistNew,
  monitoringSearchNewIds,
  monitoringTopicBreakoutId,
  monitoringVariants,
} from '@vrs/testing/upstreams/youtube/author-monitoring-fixtures';
import { trendsFixtureNow } from '@vrs/testing/upstreams/youtube/author-trends-fixtures';
import { createMonitorsRepo } from '../repo/monitors-repo';
import { harnessNow, startMonitoring, type MonitoringHarness } from '../testing/monitoring-harness';

const minute = 60_000;

describe('monitoring checks over in-process provider, trends and billing', () => {
  let h: MonitoringHarness;
  beforeAll(async () => {
    h = await startMonitoring();
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.fake.reset();
    h.at(0);
  });

  const notificationsOf = async (accountId: string, monitor: Monitor): Promise<Notification[]> =>
    (await h.call.notifications.list({ accountId })).notifications.filter((notification) => notification.monitorId === monitor.id);
  const checksOf = async (accountId: string, monitor: Monitor) =>
    (await h.call.monitors.listChecks({ accountId, monitorId: monitor.id, limit: 50 })).data;
  const credits = async (accountId: string) => (await h.billing.status.get({ accountId })).credits.balance;

  it('search: the baseline notifies nothing, an unchanged page nothing, then exactly the two new videos', async () => {
    const accountId = await h.account('search');
    const monitor = await h.call.monitors.create({
      accountId,
      query: { kind: 'search', q: monitoringFixtureQuery },
      intervalMinutes: 60,
      enabled: true,
    });
    expect(monitor.nextCheckAt).toBe(harnessNow);
    // Creating wakes the scheduler; runDue waits for that pass (the baseline) and finds nothing more.
    await h.call.scheduler.runDue();
    expect((await checksOf(accountId, monitor)).map((check) => check.outcome)).toEqual(['baseline']);
    // Not due again before the interval has passed.
    h.at(59);
    expect((await h.call.scheduler.runDue()).checkIds).toEqual([]);
    h.at(60);
    expect((await h.call.scheduler.runDue()).checkIds).toHaveLength(1);
    expect(await notificationsOf(accountId, monitor)).toEqual([]);

    h.fake.useVariant(monitoringVariants.searchLater);
    h.at(120);
    await h.call.scheduler.runDue();
    const [notification, ...others] = await notificationsOf(accountId, monitor);
    expect(others).toEqual([]);
    expect(notification).toMatchObject({ kind: 'new_videos', read: false, title: `2 new videos for "${monitoringFixtureQuery}"` });
    expect(notification!.data.items.map((item) => item.id).sort()).toEqual([...monitoringSearchNewIds].sort());
    expect(notification!.data.items[0]!.url).toMatch(/^https:\/\/www\.youtube\.com\/watch\?v=vrsMonSrch/);

    // The same page again: nothing new.
    h.at(180);
    await h.call.scheduler.runDue();
    expect(await notificationsOf(accountId, monitor)).toHaveLength(1);
    const checks = await checksOf(accountId, monitor);
    expect(checks.map((check) => check.outcome)).toEqual(['unchanged', 'changed', 'unchanged', 'baseline']);
    expect(checks.map((check) => check.creditsCharged)).toEqual([2, 2, 2, 2]);
    expect(checks[1]!.notificationId).toBe(notification!.id);
    expect(await credits(accountId)).toBe(1000 - 8);
    expect(await h.call.monitors.get({ accountId, monitorId: monitor.id })).toMatchObject({
      status: 'active',
      lastCheckedAt: new Date(harnessNow + 180 * minute).toISOString(),
      nextCheckAt: harnessNow + 240 * minute,
    });
  });

  it('channel: a new upload, then a new playlist, each once, at the price of getChannel plus listChannelPlaylists', async () => {
    const accountId = await h.account('channel');
    const monitor = await h.call.monitors.create({
      accountId,
      query: { kind: 'channel', id: monitoringFixtureChannel.id },
      intervalMinutes: 15,
      enabled: true,
    });
    await h.call.scheduler.runDue();
    h.fake.useVariant(monitoringVariants.channelLater);
    h.at(15);
    await h.call.scheduler.runDue();
    h.at(30);
    await h.call.scheduler.runDue();
    const notifications = await notificationsOf(accountId, monitor);
    expect(notifications).toHaveLength(1);
    expect(notifications[0]).toMatchObject({ kind: 'new_uploads', data: { items: [{ id: monitoringChannelNewId, type: 'video' }] } });
    expect((await checksOf(accountId, monitor)).map((check) => check.outcome)).toEqual(['unchanged', 'changed', 'baseline']);

    h.fake.useVariant(monitoringVariants.channelPlaylistLater);
    h.at(45);
    await h.call.scheduler.runDue();
    h.at(60);
    await h.call.scheduler.runDue();
    const [playlist, ...earlier] = await notificationsOf(accountId, monitor);
    expect(earlier).toHaveLength(1);
    expect(playlist).toMatchObject({
      kind: 'new_playlists',
      title: `1 new playlist on channel ${monitoringFixtureChannel.id}`,
      data: {
        items: [
          {
            type: 'playlist',
            id: monitoringPlaylistNew.id,
            title: monitoringPlaylistNew.title,
            url: `https://www.youtube.com/playlist?list=${monitoringPlaylistNew.id}`,
          },
        ],
      },
    });
    const checks = await checksOf(accountId, monitor);
    expect(checks.map((check) => check.outcome)).toEqual(['unchanged', 'changed', 'unchanged', 'changed', 'baseline']);
    // Every check refreshes both reads: getChannel (2) + listChannelPlaylists (2).
    expect(checks.map((check) => check.creditsCharged)).toEqual([4, 4, 4, 4, 4]);
    expect(await credits(accountId)).toBe(1000 - 20);
  });

  it('video: a view-velocity jump and a comment jump notify; a steady rate does not', async () => {
    const accountId = await h.account('video');
    const monitor = await h.call.monitors.create({
      accountId,
      query: { kind: 'video', id: monitoringFixtureVideo.id },
      intervalMinutes: 60,
      enabled: true,
    });
    await h.call.scheduler.runDue();
    // +100 views in the first hour, +100 in the second: the same rate, no jump.
    h.fake.setCounts({ videoId: monitoringFixtureVideo.id, viewCount: monitoringFixtureVideo.views + 100 });
    h.at(60);
    await h.call.scheduler.runDue();
    h.fake.setCounts({ videoId: monitoringFixtureVideo.id, viewCount: monitoringFixtureVideo.views + 200 });
    h.at(120);
    await h.call.scheduler.runDue();
    expect(await notificationsOf(accountId, monitor)).toEqual([]);
    // +1,000 in the third hour: ten times the rate.
    h.fake.setCounts({ videoId: monitoringFixtureVideo.id, viewCount: monitoringFixtureVideo.views + 1_200 });
    h.at(180);
    await h.call.scheduler.runDue();
    const [jump] = await notificationsOf(accountId, monitor);
    expect(jump).toMatchObject({
      kind: 'video_activity',
      data: {
        items: [
          { id: monitoringFixtureVideo.id, viewCount: 11_200, previousViewCount: 10_200, commentCount: 40, previousCommentCount: 40 },
        ],
      },
    });
    // Comments 40 → 100 at a steady view rate.
    h.fake.useVariant(monitoringVariants.videoComments);
    h.fake.setCounts({ videoId: monitoringFixtureVideo.id, viewCount: monitoringFixtureVideo.views + 2_200 });
    h.at(240);
    await h.call.scheduler.runDue();
    const all = await notificationsOf(accountId, monitor);
    expect(all).toHaveLength(2);
    expect(all[0]).toMatchObject({ data: { items: [{ commentCount: 100, previousCommentCount: 40 }] } });
  });

  it('video: a new comment on the newest page, once; a failed comments read fails the whole check and loses nothing', async () => {
    const accountId = await h.account('video-comments');
    const monitor = await h.call.monitors.create({
      accountId,
      query: { kind: 'video', id: monitoringFixtureVideo.id },
      intervalMinutes: 60,
      enabled: true,
    });
    await h.call.scheduler.runDue();
    h.at(60);
    await h.call.scheduler.runDue();
    expect(await notificationsOf(accountId, monitor)).toEqual([]);
    // The video read succeeds, the comments read fails: the check fails, is refunded and backs off.
    h.fake.useVariant(monitoringVariants.videoNewComment);
    h.fake.addFault({ match: { endpoint: 'next', continuation: monitoringCommentsToken }, kind: 'status', status: 503 });
    h.at(120);
    await h.call.scheduler.runDue();
    expect(await h.call.monitors.get({ accountId, monitorId: monitor.id })).toMatchObject({
      status: 'backing_off',
      consecutiveFailures: 1,
      nextCheckAt: harnessNow + 240 * minute,
    });
    expect(await notificationsOf(accountId, monitor)).toEqual([]);
    h.fake.reset();
    h.fake.useVariant(monitoringVariants.videoNewComment);
    h.at(240);
    await h.call.scheduler.runDue();
    h.at(300);
    await h.call.scheduler.runDue();
    const notifications = await notificationsOf(accountId, monitor);
    const { id } = monitoringNewComment();
    expect(notifications).toMatchObject([
      {
        kind: 'new_comments',
        title: `1 new comment on video ${monitoringFixtureVideo.id}`,
        data: {
          items: [{ type: 'comment', id, url: `https://www.youtube.com/watch?v=${monitoringFixtureVideo.id}&lc=${id}` }],
        },
      },
    ]);
    const [comment] = notifications[0]!.data.items;
    expect(comment!.author).toMatch(/\S/);
    expect(comment!.text!.length).toBeGreaterThan(0);
    const checks = await checksOf(accountId, monitor);
    expect(checks.map((check) => check.outcome)).toEqual(['unchanged', 'changed', 'failed', 'unchanged', 'baseline']);
    // getVideo (2) + one newest-first comments page (3), every check refreshing; the failed one refunded.
    expect(checks.map((check) => check.creditsCharged)).toEqual([5, 5, 0, 5, 5]);
    expect(await credits(accountId)).toBe(1000 - 4 * 5);
  });

  it('topic: accelerating videos of a trend report, not the ones already seen in the baseline', async () => {
    const accountId = await h.account('topic');
    await h.setTrendsClock(trendsFixtureNow);
    const monitor = await h.call.monitors.create({
      accountId,
      query: { kind: 'topic', q: 'cold brew', sampleSize: 8 },
      intervalMinutes: 240,
      enabled: true,
    });
    await h.call.scheduler.runDue();
    const [baseline] = await checksOf(accountId, monitor);
    expect(baseline).toMatchObject({ outcome: 'baseline', creditsCharged: 10 });
    // coldBrew001 is in the Breakout band from the start (the baseline); coldBrew003 takes off: 5,000 → 25,000 views in 4 h.
    h.fake.setCounts({ videoId: 'coldBrew001', viewCount: 60_000, likeCount: 2_900 });
    h.fake.setCounts({ videoId: 'coldBrew003', viewCount: 25_000, likeCount: 1_000 });
    await h.setTrendsClock(new Date(Date.parse(trendsFixtureNow) + 4 * 3_600_000).toISOString());
    h.at(240);
    await h.call.scheduler.runDue();
    const [check] = await checksOf(accountId, monitor);
    expect(check!.outcome).not.toBe('failed');
    const notifications = await notificationsOf(accountId, monitor);
    expect(notifications.flatMap((notification) => notification.data.items.map((item) => item.id))).toEqual(
      check!.changes.map((item) => item.id),
    );
    expect(check!.changes.map((item) => item.id)).toEqual(['coldBrew003']);
    expect(check!.outcome).toBe('changed');
  });

  // The e2e stack's trends clock is whatever the trends suite set last, or the real time: the topic's bands must not depend on it.
  it.each([
    { name: 'the fixtures’ instant, 4 h per check', start: Date.parse(trendsFixtureNow), stepHours: 4 },
    { name: 'ten months later, standing still', start: Date.parse(trendsFixtureNow) + 7_300 * 3_600_000, stepHours: 0 },
  ])('topic: a new Breakout video once, nothing while the report is the same ($name)', async ({ name, start, stepHours }) => {
    const accountId = await h.account(`topic-breakout-${name}`);
    let hours = 0;
    const nextCheck = async (minutes: number) => {
      await h.setTrendsClock(new Date(start + hours * 3_600_000).toISOString());
      hours += stepHours;
      h.at(minutes);
      await h.call.scheduler.runDue();
    };
    const monitor = await h.call.monitors.create({
      accountId,
      query: { kind: 'topic', q: monitoringFixtureTopic, sampleSize: 8 },
      intervalMinutes: 240,
      enabled: true,
    });
    await nextCheck(0);
    await nextCheck(240);
    expect(await notificationsOf(accountId, monitor)).toEqual([]);
    h.fake.useVariant(monitoringVariants.topicBreakout);
    await nextCheck(480);
    await nextCheck(720);
    const notifications = await notificationsOf(accountId, monitor);
    expect(notifications).toMatchObject([
      {
        kind: 'trend_videos',
        data: { items: [{ type: 'video', id: monitoringTopicBreakoutId, trendBand: 'Breakout' }] },
      },
    ]);
    expect(notifications[0]!.data.items).toHaveLength(1);
    const checks = await checksOf(accountId, monitor);
    expect(checks.map((check) => check.outcome)).toEqual(['unchanged', 'changed', 'unchanged', 'baseline']);
    expect(checks.map((check) => check.creditsCharged)).toEqual([10, 10, 10, 10]);
  });

  it('upstream failures back off (interval doubling up to the cap), are refunded and never notify', async () => {
    const accountId = await h.account('failures');
    const monitor = await h.call.monitors.create({
      accountId,
      query: { kind: 'search', q: monitoringFixtureQuery },
      intervalMinutes: 480,
      enabled: true,
    });
    await h.call.scheduler.runDue();
    h.fake.addFault({ match: { endpoint: 'search' }, kind: 'status', status: 503 });
    h.fake.useVariant(monitoringVariants.searchLater);
    const waits: number[] = [];
    let at = 480;
    for (let failure = 1; failure <= 3; failure++) {
      h.at(at);
      await h.call.scheduler.runDue();
      const state = await h.call.monitors.get({ accountId, monitorId: monitor.id });
      expect(state).toMatchObject({ status: 'backing_off', consecutiveFailures: failure });
      expect(state.statusReason).toMatch(/^UPSTREAM_UNAVAILABLE/);
      waits.push((state.nextCheckAt - (harnessNow + at * minute)) / minute);
      at = (state.nextCheckAt - harnessNow) / minute;
    }
    // 480 × 2, × 4 = 1,920 capped at 1,440, and stays there.
    expect(waits).toEqual([960, 1440, 1440]);
    expect(await notificationsOf(accountId, monitor)).toEqual([]);
    expect(await credits(accountId)).toBe(1000 - 2);
    // The upstream recovers: the new videos are reported once, and the monitor is active again.
    h.fake.reset();
    h.fake.useVariant(monitoringVariants.searchLater);
    h.at(at);
    await h.call.scheduler.runDue();
    expect(await notificationsOf(accountId, monitor)).toHaveLength(1);
    expect(await h.call.monitors.get({ accountId, monitorId: monitor.id })).toMatchObject({ status: 'active', consecutiveFailures: 0 });
  });

  it('an account without credits gets one "paused" notification, not one per interval', async () => {
    const accountId = await h.account('broke');
    // Drained before the monitor exists: creating it wakes the scheduler, whose first check must already find no credits.
    const balance = await credits(accountId);
    const { reservationId } = await h.billing.credits.reserve({ accountId, amount: balance, operation: 'test-drain' });
    await h.billing.credits.settle({ reservationId, amount: balance });
    const monitor = await h.call.monitors.create({
      accountId,
      query: { kind: 'search', q: monitoringFixtureQuery },
      intervalMinutes: 15,
      enabled: true,
    });
    for (const minutes of [0, 15, 30]) {
      h.at(minutes);
      await h.call.scheduler.runDue();
    }
    const notifications = await notificationsOf(accountId, monitor);
    expect(notifications.map((notification) => notification.kind)).toEqual(['checks_paused']);
    expect(await h.call.monitors.get({ accountId, monitorId: monitor.id })).toMatchObject({ status: 'paused_no_credits' });
    expect((await checksOf(accountId, monitor)).map((check) => check.outcome)).toEqual(['paused', 'paused', 'paused']);
  });

  it("a crashed checker's lease expires and the monitor is checked by another pass, once", async () => {
    const accountId = await h.account('crashed');
    const monitor = await h.call.monitors.create({
      accountId,
      query: { kind: 'search', q: monitoringFixtureQuery },
      intervalMinutes: 15,
      enabled: true,
    });
    await h.call.scheduler.runDue();
    h.at(15);
    // A checker claims it and dies: its lease (5 minutes in the harness) holds the monitor.
    expect(await createMonitorsRepo(h.store).claim(monitor.id, harnessNow + 15 * minute, 300_000, 'lease_crashed')).not.toBeNull();
    await h.call.scheduler.runDue();
    h.at(19);
    await h.call.scheduler.runDue();
    expect((await checksOf(accountId, monitor)).map((check) => check.outcome)).toEqual(['baseline']);
    h.at(20);
    await h.call.scheduler.runDue();
    await h.call.scheduler.runDue();
    expect((await checksOf(accountId, monitor)).map((check) => check.outcome)).toEqual(['unchanged', 'baseline']);
  });

  it('two monitoring replicas on one store check each due monitor exactly once', async () => {
    const accountId = await h.account('replicas');
    const replica = await h.replica();
    const created = await Promise.all(
      Array.from({ length: 12 }, () =>
        h.call.monitors.create({ accountId, query: { kind: 'search', q: monitoringFixtureQuery }, intervalMinutes: 15, enabled: true }),
      ),
    );
    // The baselines (a pass the creations woke), then the next round, due at once on both replicas.
    await h.call.scheduler.runDue();
    h.at(15);
    replica.clock.set(h.clock.now());
    const [first, second] = await Promise.all([h.call.scheduler.runDue(), replica.call.scheduler.runDue()]);
    expect(first.checkIds.length + second.checkIds.length).toBe(12);
    expect(new Set([...first.checkIds, ...second.checkIds]).size).toBe(12);
    for (const monitor of created)
      expect((await checksOf(accountId, monitor)).map((check) => check.outcome)).toEqual(['unchanged', 'baseline']);
    expect(await credits(accountId)).toBe(1000 - 48);
  });
});
