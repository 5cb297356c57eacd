import { notificationListSchema, listNotificationsInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const listNotifications = protectedOperation({
  method: 'GET',
  path: '/notifications',
  operationId: 'listNotifications',
  tags: ['Monitoring'],
  summary: 'Notifications',
  description:
    "The account's 100 newest notifications, newest first, read or not: what a monitor's check found (`data.items`: the changed videos or channels with ids and URLs), or that checks are paused for lack of credits.",
  errorResponses: [...authenticatedErrors],
})
  .input(listNotificationsInput)
  .output(notificationListSchema)
  .query(({ ctx }) => ctx.services.monitoring.notifications.list.query({ accountId: ctx.principal.accountId }));
