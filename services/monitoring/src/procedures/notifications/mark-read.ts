import { notificationReadSchema, notificationRefInputSchema } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { z } from 'zod';
import type { MonitoringDeps } from '../../monitoring-deps';

/** Idempotent: reading a read notification answers the same. Another account's is a 404. */
export async function markNotificationReadHandler({
  ctx,
  input,
}: {
  ctx: Pick<MonitoringDeps, 'notifications'>;
  input: z.infer<typeof notificationRefInputSchema>;
}): Promise<z.infer<typeof notificationReadSchema>> {
  if (!(await ctx.notifications.markRead(input.accountId, input.notificationId))) throw new AppError('NOTIFICATION_NOT_FOUND');
  return { read: true };
}

export const markNotificationRead = (deps: MonitoringDeps) =>
  procedure
    .input(notificationRefInputSchema)
    .output(notificationReadSchema)
    .mutation(({ input }) => markNotificationReadHandler({ ctx: deps, input }));
