import { recordOutboxEvent } from '@vrs/bus';
import { monitoringNotificationCreated, type ChangedItem, type Notification } from '@vrs/contracts';
import type { StoreScope } from '@vrs/store';
import { newId } from '@vrs/kit';
import type { CheckDeps } from '../monitoring-deps';
import type { NotificationDoc } from '../repo/notifications-repo';

export const notificationCreatedType = 'notification.created';

/** A notification to record: the document's fields, its items not yet in `data`. */
export type NewNotification = Omit<NotificationDoc, '_id' | 'data' | 'read'> & { items: ChangedItem[] };

/** Digests choose their channels: saved read when not meant for the app, delivered only when meant for webhooks. */
export interface NotificationChannels {
  read: boolean;
  deliver: boolean;
}

/**
 * Saves a notification for the account, queues its delivery to each of `webhooks` (`webhooksFor`,
 * read before the transaction) and records its announcement (`monitoring.notification.created`, event
 * id = notification id) through `tx`: all three commit with the write that caused them, or none does.
 * The outbox relay publishes the event once committed (ADR 0030).
 */
export async function recordNotification(
  deps: Pick<CheckDeps, 'notifications' | 'deliveries'>,
  tx: StoreScope,
  notification: NewNotification,
  channels: NotificationChannels,
  webhooks: { _id: string }[],
): Promise<string> {
  const id = newId('ntf');
  const { items, accountId, ...rest } = notification;
  const saved: Notification = { id, ...rest, data: { items }, read: channels.read };
  const payload = JSON.stringify({ type: notificationCreatedType, timestamp: notification.createdAt, data: saved });
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
  await deps.notifications.insert({ _id: id, accountId, ...rest, data: { items }, read: channels.read }, tx);
  await deps.deliveries.insertMany(deliveries, tx);
  await recordOutboxEvent(
    tx,
    monitoringNotificationCreated,
    { accountId, notificationId: id, monitorId: notification.monitorId, kind: notification.kind, items: items.length },
    id,
  );
  return id;
}

/** The webhooks a notification goes to: the account's enabled ones, unless it is not to be delivered. */
export const webhooksFor = (deps: Pick<CheckDeps, 'webhooks'>, accountId: string, channels: NotificationChannels) =>
  channels.deliver ? deps.webhooks.enabledOf(accountId) : Promise.resolve([]);

/** A notification written on its own (digests, a disabled webhook): its own transaction, then the relay. */
export async function publishNotification(
  deps: Pick<CheckDeps, 'notifications' | 'store' | 'outbox' | 'webhooks' | 'deliveries'>,
  notification: NewNotification,
  channels: NotificationChannels = { read: false, deliver: true },
): Promise<string> {
  const webhooks = await webhooksFor(deps, notification.accountId, channels);
  const id = await deps.store.withTransaction((tx) => recordNotification(deps, tx, notification, channels, webhooks));
  deps.outbox.notify();
  return id;
}
