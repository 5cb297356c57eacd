import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '@vrs/contracts';
import { AppError, newId } from '@vrs/kit';
import { monitoringFixtureQuery } from '@vrs/testing/upstreams/youtube/author-monitoring-fixtures';
import { createNotificationsRepo } from '../../repo/notifications-repo';
import { harnessNow, startMonitoring, type MonitoringHarness } from '../../testing/monitoring-harness';

const minute = 60_000;
const search = { kind: 'search' as const, q: monitoringFixtureQuery };

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof AppError) return cause.code;
    if (error instanceof AppError) return error.code;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('monitor procedures', () => {
  let h: MonitoringHarness;
  beforeAll(async () => {
    h = await startMonitoring();
  });
  afterAll(() => h.close());

  it('PATCH: disabling keeps nextCheckAt, enabling sets now + interval, a new interval reschedules, an empty body is refused', async () => {
    h.at(0);
    const accountId = await h.account('patch');
    const created = await h.call.monitors.create({ accountId, query: search, intervalMinutes: 60, enabled: true });
    const monitorId = created.id;
    await h.call.scheduler.runDue();
    const scheduled = harnessNow + 60 * minute;
    h.at(10);
    expect(await h.call.monitors.update({ accountId, monitorId, enabled: false })).toEqual({
      intervalMinutes: 60,
      enabled: false,
      nextCheckAt: scheduled,
    });
    // Disabled: due by the clock, yet never claimed.
    h.at(120);
    expect((await h.call.scheduler.runDue()).checkIds).toEqual([]);
    expect(await h.call.monitors.get({ accountId, monitorId })).toMatchObject({ status: 'disabled', nextCheckAt: scheduled });
    expect(await codeOf(h.call.monitors.check({ accountId, monitorId }))).toBe('MONITOR_DISABLED');
    expect(await h.call.monitors.update({ accountId, monitorId, enabled: true })).toEqual({
      intervalMinutes: 60,
      enabled: true,
      nextCheckAt: harnessNow + 180 * minute,
    });
    h.at(130);
    expect(await h.call.monitors.update({ accountId, monitorId, intervalMinutes: 15 })).toEqual({
      intervalMinutes: 15,
      enabled: true,
      nextCheckAt: harnessNow + 145 * minute,
    });
    // Enabling an enabled monitor changes nothing.
    expect(await h.call.monitors.update({ accountId, monitorId, enabled: true })).toMatchObject({ nextCheckAt: harnessNow + 145 * minute });
    expect(await codeOf(h.call.monitors.update({ accountId, monitorId }))).toBe('VALIDATION_FAILED');
  });

  it('a new query forgets the saved state: its next check is a baseline, not a flood of "new" items', async () => {
    h.at(0);
    const accountId = await h.account('requery');
    const { id: monitorId } = await h.call.monitors.create({ accountId, query: search, intervalMinutes: 15, enabled: true });
    await h.call.scheduler.runDue();
    await h.call.monitors.update({ accountId, monitorId, query: { kind: 'channel', id: 'UCvrsMonitoringChannel01' } });
    h.at(15);
    await h.call.scheduler.runDue();
    const { data: checks } = await h.call.monitors.listChecks({ accountId, monitorId, limit: 10 });
    expect(checks.map((check) => check.outcome)).toEqual(['baseline', 'baseline']);
  });

  it('check now makes the monitor due and the woken scheduler checks it', async () => {
    h.at(0);
    const accountId = await h.account('force');
    const { id: monitorId } = await h.call.monitors.create({ accountId, query: search, intervalMinutes: 10_080, enabled: true });
    await h.call.scheduler.runDue();
    h.at(5);
    expect(await h.call.monitors.check({ accountId, monitorId })).toMatchObject({ nextCheckAt: harnessNow + 5 * minute });
    await h.call.scheduler.runDue();
    const { data: checks } = await h.call.monitors.listChecks({ accountId, monitorId, limit: 10 });
    expect(checks.map((check) => check.checkedAt)).toEqual([harnessNow + 5 * minute, harnessNow].map((ms) => new Date(ms).toISOString()));
  });

  it("lists newest first with limit + cursor; a cursor pages only the caller's own monitors; another account sees 404s", async () => {
    h.at(0);
    const accountId = await h.account('list');
    const other = await h.account('other');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      h.at(i);
      ids.push((await h.call.monitors.create({ accountId, query: search, intervalMinutes: 60, enabled: false })).id);
    }
    const first = await h.call.monitors.list({ accountId, limit: 2 });
    expect(first).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    expect(first.data.map((monitor) => monitor.id)).toEqual([ids[2], ids[1]]);
    const cursor = first.nextCursor ?? '';
    // The cursor is a position: deleting the item it ended on does not break it (ADR 0020).
    await h.call.monitors.delete({ accountId, monitorId: ids[1]! });
    const second = await h.call.monitors.list({ accountId, limit: 2, cursor });
    expect(second).toEqual({ hasMore: false, nextCursor: null, data: [expect.objectContaining({ id: ids[0] })] });
    expect(await h.call.monitors.list({ accountId: other, limit: 2, cursor })).toEqual({ data: [], hasMore: false, nextCursor: null });
    const checksCursor = encodeCursor('monitor_checks', { createdAt: new Date().toISOString(), id: 'chk_x' });
    for (const foreign of [ids[0]!, checksCursor]) {
      expect(await codeOf(h.call.monitors.list({ accountId, limit: 2, cursor: foreign }))).toBe('INVALID_CURSOR');
    }
    for (const call of [
      h.call.monitors.get({ accountId: other, monitorId: ids[0]! }),
      h.call.monitors.update({ accountId: other, monitorId: ids[0]!, enabled: true }),
      h.call.monitors.check({ accountId: other, monitorId: ids[0]! }),
      h.call.monitors.listChecks({ accountId: other, monitorId: ids[0]!, limit: 10 }),
      h.call.monitors.delete({ accountId: other, monitorId: ids[0]! }),
    ]) {
      expect(await codeOf(call)).toBe('MONITOR_NOT_FOUND');
    }
    expect(await h.call.monitors.delete({ accountId, monitorId: ids[0]! })).toEqual({ id: ids[0], deleted: true });
    expect(await codeOf(h.call.monitors.get({ accountId, monitorId: ids[0]! }))).toBe('MONITOR_NOT_FOUND');
  });

  it('notifications: newest first, read is idempotent, another account gets 404', async () => {
    h.at(0);
    h.fake.reset();
    const accountId = await h.account('read');
    const other = await h.account('read-other');
    await h.call.monitors.create({ accountId, query: search, intervalMinutes: 15, enabled: true });
    await h.call.scheduler.runDue();
    h.fake.useVariant('monitoring-search-later');
    h.at(15);
    await h.call.scheduler.runDue();
    h.fake.reset();
    const [notification] = (await h.call.notifications.list({ accountId })).notifications;
    expect(notification).toMatchObject({ read: false, kind: 'new_videos' });
    expect(await codeOf(h.call.notifications.markRead({ accountId: other, notificationId: notification!.id }))).toBe(
      'NOTIFICATION_NOT_FOUND',
    );
    expect(await h.call.notifications.markRead({ accountId, notificationId: notification!.id })).toEqual({ read: true });
    expect(await h.call.notifications.markRead({ accountId, notificationId: notification!.id })).toEqual({ read: true });
    expect((await h.call.notifications.list({ accountId })).notifications[0]).toMatchObject({ id: notification!.id, read: true });
    expect((await h.call.notifications.list({ accountId: other })).notifications).toEqual([]);
  });

  it('notifications: at most the 100 newest, newest first', async () => {
    const accountId = await h.account('hundred');
    const notifications = createNotificationsRepo(h.store);
    const base = Date.parse('2026-02-01T00:00:00.000Z');
    // Inserted out of time order, so the order listed is the list's own.
    const minutes = Array.from({ length: 105 }, (_, index) => (index * 37) % 105);
    for (const offset of minutes)
      await notifications.insert({
        _id: newId('ntf'),
        accountId,
        monitorId: null,
        kind: 'new_videos',
        title: `notification ${offset}`,
        body: '',
        data: { items: [] },
        createdAt: new Date(base + offset * minute).toISOString(),
        read: false,
      });
    const listed = (await h.call.notifications.list({ accountId })).notifications;
    expect(listed).toHaveLength(100);
    expect(listed.map((notification) => notification.title)).toEqual(
      Array.from({ length: 100 }, (_, index) => `notification ${104 - index}`),
    );
  });
});
