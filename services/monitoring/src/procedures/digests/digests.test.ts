import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  monitoringFixtureQuery,
  monitoringSearchNewIds,
  monitoringVariants,
} from '@vrs/testing/upstreams/youtube/author-monitoring-fixtures';
import { startMonitoring, type MonitoringHarness } from '../../testing/monitoring-harness';

const utc = (iso: string) => Date.parse(iso);

describe('digests', () => {
  let h: MonitoringHarness;
  beforeAll(async () => {
    h = await startMonitoring();
  });
  afterAll(() => h.close());

  it('a daily digest at the chosen local hour summarizes the unread notifications, once; nothing unread sends nothing', async () => {
    h.at(0);
    h.fake.reset();
    const accountId = await h.account('digest');
    expect(await h.call.digests.getPreferences({ accountId })).toEqual({
      frequency: 'off',
      hourOfDay: 9,
      timezone: 'UTC',
      channels: ['in_app'],
      nextDigestAt: null,
    });
    // harnessNow is 13:00 in Berlin: the next 09:00 there is tomorrow, 08:00 UTC.
    const saved = await h.call.digests.putPreferences({
      accountId,
      frequency: 'daily',
      hourOfDay: 9,
      timezone: 'Europe/Berlin',
      channels: ['in_app'],
    });
    expect(saved.nextDigestAt).toBe('2026-01-21T08:00:00.000Z');
    expect(await h.call.digests.getPreferences({ accountId })).toEqual(saved);

    const monitor = await h.call.monitors.create({
      accountId,
      query: { kind: 'search', q: monitoringFixtureQuery },
      intervalMinutes: 10_080,
      enabled: true,
    });
    await h.call.scheduler.runDue();
    h.fake.useVariant(monitoringVariants.searchLater);
    h.at(15);
    await h.call.monitors.check({ accountId, monitorId: monitor.id });
    await h.call.scheduler.runDue();
    h.fake.reset();
    expect((await h.call.notifications.list({ accountId })).notifications.map((n) => n.kind)).toEqual(['new_videos']);

    // One minute early: nothing.
    h.clock.set(new Date(utc('2026-01-21T07:59:00Z')));
    await h.call.scheduler.runDue();
    expect((await h.call.notifications.list({ accountId })).notifications).toHaveLength(1);
    h.clock.set(new Date(utc('2026-01-21T08:00:00Z')));
    await h.call.scheduler.runDue();
    await h.call.scheduler.runDue();
    const [digest, ...rest] = (await h.call.notifications.list({ accountId })).notifications;
    expect(rest.map((n) => n.kind)).toEqual(['new_videos']);
    expect(digest).toMatchObject({ kind: 'digest', monitorId: null, title: 'Daily digest: 1 unread notification', read: false });
    expect(digest!.data.items.map((item) => item.id).sort()).toEqual([...monitoringSearchNewIds].sort());
    expect((await h.call.digests.getPreferences({ accountId })).nextDigestAt).toBe('2026-01-22T08:00:00.000Z');

    // Everything read by the next day: no digest.
    for (const notification of [digest!, ...rest]) await h.call.notifications.markRead({ accountId, notificationId: notification.id });
    h.clock.set(new Date(utc('2026-01-22T08:00:00Z')));
    await h.call.scheduler.runDue();
    expect((await h.call.notifications.list({ accountId })).notifications).toHaveLength(2);
    expect((await h.call.digests.getPreferences({ accountId })).nextDigestAt).toBe('2026-01-23T08:00:00.000Z');
  });

  it('turning digests off clears the schedule', async () => {
    h.at(0);
    const accountId = await h.account('digest-off');
    await h.call.digests.putPreferences({
      accountId,
      frequency: 'weekly',
      hourOfDay: 18,
      timezone: 'America/New_York',
      channels: ['in_app'],
    });
    expect((await h.call.digests.getPreferences({ accountId })).nextDigestAt).toBe('2026-01-26T23:00:00.000Z');
    const off = await h.call.digests.putPreferences({
      accountId,
      frequency: 'off',
      hourOfDay: 18,
      timezone: 'America/New_York',
      channels: ['in_app'],
    });
    expect(off.nextDigestAt).toBeNull();
  });
});
