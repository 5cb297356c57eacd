import { maxNotificationsListed, type Notification } from '@vrs/contracts';
import { deleteInBatches, type Store, type StoreScope } from '@vrs/store';

export interface NotificationDoc extends Omit<Notification, 'id'> {
  _id: string;
  accountId: string;
}

export function createNotificationsRepo(store: Store) {
  const notifications = store.collection<NotificationDoc>('notifications');
  return {
    ensureIndexes: () => notifications.createIndexes([{ key: { accountId: 1, createdAt: -1, _id: -1 }, name: 'account_newest_first' }]),

    /** Through `tx` when given, so the notification commits with its deliveries and its outbox event. */
    insert: (notification: NotificationDoc, tx?: StoreScope) =>
      (tx ? tx.collection<NotificationDoc>('notifications') : notifications).insertOne(notification),

    /** The account's newest notifications; ids are time-ordered, so they break ties within a millisecond. */
    newest: (accountId: string) => notifications.find({ accountId }, { sort: { createdAt: -1, _id: -1 }, limit: maxNotificationsListed }),

    /** Unread notifications created after `since` (ISO), digests excluded: what a digest summarizes. */
    unreadSince: (accountId: string, since: string, limit: number) =>
      notifications.find(
        { accountId, read: false, kind: { $ne: 'digest' }, createdAt: { $gt: since } },
        { sort: { createdAt: -1, _id: -1 }, limit },
      ),

    /** Every notification of a deleted account (ADR 0033). */
    deleteAllOfAccount: (accountId: string): Promise<number> => deleteInBatches(notifications, { accountId }),

    /** Idempotent; null when the account has no such notification. */
    markRead: (accountId: string, notificationId: string) =>
      notifications.findOneAndUpdate({ _id: notificationId, accountId }, { $set: { read: true } }),
  };
}

export type NotificationsRepo = ReturnType<typeof createNotificationsRepo>;

export function toNotification({ _id, accountId: _owner, ...notification }: NotificationDoc): Notification {
  return { id: _id, ...notification };
}
