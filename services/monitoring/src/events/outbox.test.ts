import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { monitoringCheckCompleted, monitoringNotificationCreated } from '@vrs/contracts';
import { createJetStreamBus, deleteNamespace, type EventBus } from '@vrs/bus';
import { startRestartableNatsServer, uniqueNamespace, type RestartableNatsServer } from '@vrs/testing/nats';
import { monitoringFixtureQuery, monitoringVariants } from '@vrs/testing/upstreams/youtube/author-monitoring-fixtures';
import { startMonitoring, type MonitoringHarness } from '../testing/monitoring-harness';

const poll = { timeout: 30_000, interval: 100 };

/*
 * Monitoring announces its notifications and checks through the outbox (ADR 0030): a real
 * nats-server of this test's own is stopped while checks write, and started again. Every event
 * written meanwhile must arrive, and none twice.
 */
describe('monitoring events go through the outbox while NATS is away', () => {
  let nats: RestartableNatsServer;
  let bus: EventBus;
  let namespace: string;
  let h: MonitoringHarness;
  const notificationEvents: string[] = [];
  const checkEvents: string[] = [];

  beforeAll(async () => {
    nats = await startRestartableNatsServer();
    namespace = uniqueNamespace('monout');
    bus = await createJetStreamBus({ natsUrl: nats.url, namespace, name: 'test monitoring outbox' });
    h = await startMonitoring({ monitoringBus: bus, outboxRetryDelayMs: 200 });
    // Probes beside the service: what reaches a JetStream consumer, by event id.
    await bus.subscribe(
      'outbox-probe-notifications',
      monitoringNotificationCreated,
      async (event) => void notificationEvents.push(event.id),
    );
    await bus.subscribe('outbox-probe-checks', monitoringCheckCompleted, async (event) => void checkEvents.push(event.id));
  }, 60_000);

  afterAll(async () => {
    await h?.close();
    await nats?.resume();
    await bus?.close();
    await deleteNamespace(nats.url, namespace).catch(() => undefined);
    await nats?.stop();
  });

  it('checks run and notify with NATS stopped; once it is back every event arrives exactly once', async () => {
    const accountId = await h.account('outbox');
    const monitors = await Promise.all(
      [1, 2, 3].map(() =>
        h.call.monitors.create({ accountId, query: { kind: 'search', q: monitoringFixtureQuery }, intervalMinutes: 15, enabled: true }),
      ),
    );
    await h.call.scheduler.runDue();
    await vi.waitFor(() => expect(checkEvents).toHaveLength(3), poll);
    // A probe's ack still in flight when the server halts is lost, and JetStream delivers that event
    // again after the resume: at-least-once delivery to a consumer, not a second publish.
    const deliveredBeforeHalt = new Set(checkEvents);

    await nats.halt();
    h.fake.useVariant(monitoringVariants.searchLater);
    h.at(15);
    expect((await h.call.scheduler.runDue()).checkIds).toHaveLength(3);
    h.at(30);
    expect((await h.call.scheduler.runDue()).checkIds).toHaveLength(3);
    const notifications = (await h.call.notifications.list({ accountId })).notifications;
    expect(notifications).toHaveLength(3);
    // Written, not lost, not yet out: every event of the outage waits in the outbox.
    expect(await h.store.collection('outbox').countDocuments({ status: 'pending' })).toBe(3 + 6);
    expect(checkEvents).toHaveLength(3);
    expect(notificationEvents).toEqual([]);

    await nats.resume();
    const checkIds = (
      await Promise.all(
        monitors.map(async (monitor) => (await h.call.monitors.listChecks({ accountId, monitorId: monitor.id, limit: 50 })).data),
      )
    )
      .flat()
      .map((check) => check.id);
    expect(checkIds).toHaveLength(9);
    await vi.waitFor(() => expect([...new Set(checkEvents)].sort()).toEqual([...checkIds].sort()), poll);
    await vi.waitFor(() => expect([...notificationEvents].sort()).toEqual(notifications.map((n) => n.id).sort()), poll);
    await vi.waitFor(async () => expect(await h.store.collection('outbox').countDocuments({ status: 'pending' })).toBe(0), poll);

    // One more check after everything was sent: its event arrives, and no earlier one comes again.
    h.at(45);
    const lastIds = (await h.call.scheduler.runDue()).checkIds;
    expect(lastIds).toHaveLength(3);
    await vi.waitFor(() => expect(checkEvents).toEqual(expect.arrayContaining(lastIds)), poll);
    expect(new Set(checkEvents).size).toBe(12);
    // Every event published during or after the outage arrived once: the outbox never sent one twice.
    const timesDelivered = (id: string) => checkEvents.filter((delivered) => delivered === id).length;
    for (const id of [...checkIds, ...lastIds].filter((checkId) => !deliveredBeforeHalt.has(checkId)))
      expect(timesDelivered(id), id).toBe(1);
    expect(notificationEvents).toHaveLength(3);
  }, 120_000);
});
