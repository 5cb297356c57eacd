import { monitoringNotificationCreated, type ChangedItem, type NotificationKind } from '@vrs/contracts';
import { newId } from '@vrs/kit';
import type { CheckDeps } from '../monitoring-deps';

/** Saves a notification for the account and announces it on the bus (`monitoring.notification.created`). */
export async function publishNotification(
  deps: Pick<CheckDeps, 'notifications' | 'bus'>,
  notification: {
    accountId: string;
    monitorId: string | null;
    kind: NotificationKind;
    title: string;
    body: string;
    items: ChangedItem[];
    createdAt: string;
  },
): Promise<string> {
  const id = newId('ntf');
  const { items, ...rest } = notification;
  await deps.notifications.insert({ _id: id, ...rest, data: { items }, read: false });
  await deps.bus.publish(monitoringNotificationCreated, {
    accountId: notification.accountId,
    notificationId: id,
    monitorId: notification.monitorId,
    kind: notification.kind,
    items: items.length,
  });
  return id;
}
