import { listNotificationsInputSchema, notificationListSchema } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { z } from 'zod';
import type { MonitoringDeps } from '../../monitoring-deps';
import { toNotification } from '../../repo/notifications-repo';

/** The account's 100 newest notifications, newest first, read or not. */
export async function listNotificationsHandler({
  ctx,
  input,
}: {
  ctx: Pick<MonitoringDeps, 'notifications'>;
  input: z.infer<typeof listNotificationsInputSchema>;
}): Promise<z.infer<typeof notificationListSchema>> {
  return { notifications: (await ctx.notifications.newest(input.accountId)).map(toNotification) };
}

export const listNotifications = (deps: MonitoringDeps) =>
  procedure
    .input(listNotificationsInputSchema)
    .output(notificationListSchema)
    .query(({ input }) => listNotificationsHandler({ ctx: deps, input }));
