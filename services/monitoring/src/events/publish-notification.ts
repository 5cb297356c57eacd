import { recordOutboxEvent } from '@vrs/bus';
import { monitoringNotificationCreated, type ChangedItem, type Notification, type NotificationKind } from '@vrs/contracts';
import { newId } from '@vrs/kit';
import type { CheckDeps } from '../monitoring-deps';

export const notificationCreatedType = 'notification.created';

/**
 * Saves a notification for the account, queues its delivery to each of the account's enabled
 * webhooks and records its announcement (`monitoring.notification.created`, event id = notification
 * id) in one transaction: all three or none. The outbox relay publishes the event (ADR 0030).
 */
export async function publishNotification(
  deps: Pick<CheckDeps, 'notifications' | 'store' | 'outbox' | 'webhooks' | 'deliveries'>,
  notification: {
    accountId: string;
    monitorId: string | null;
    kind: NotificationKind;
    title: string;
    body: string;
    items: ChangedItem[];
    createdAt: string;
  },
  /** Digests choose their channels: saved read when not meant for the app, delivered only when meant for webhooks. */
  channels: { read: boolean; deliver: boolean } = { read: false, deliver: true },
): Promise<string> {
  const id = newId('ntf');
  const { items, accountId, ...rest } = notification;
  const saved: Notification = { id, ...rest, data: { items }, read: channels.read };
  const payload = JSON.stringify({ type: notificationCreatedType, timestamp: notification.createdAt, data: saved });
  const webhooks = channels.deliver ? await deps.webhooks.enabledOf(accountId) : [];
  const deliveries = webhooks.map((webhook) => ({
    _id: newId('dlv'),
    accountId,
    webhookId: webhook._id,
    notificationId: id,
    eventType: notificationCreatedType,
    status: 'pending' as const,
    attempts: 0,
    lastResponseStatus: null,
    lastError: null,
    nextAttemptAt: Date.parse(notification.createdAt),
    createdAt: notification.createdAt,
    payload,
    leaseUntil: 0,
    leaseToken: null,
  }));
  await deps.store.withTransaction(async (tx) => {
    await deps.notifications.insert({ _id: id, accountId, ...rest, data: { items }, read: channels.read }, tx);
    await deps.deliveries.insertMany(deliveries, tx);
    await recordOutboxEvent(
      tx,
      monitoringNotificationCreated,
      { accountId, notificationId: id, monitorId: notification.monitorId, kind: notification.kind, items: items.length },
      id,
    );
  });
  deps.outbox.notify();
  return id;
}
