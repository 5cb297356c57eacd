import { notificationReadSchema, markNotificationReadInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const markNotificationRead = protectedOperation({
  method: 'POST',
  path: '/notifications/{id}/read',
  operationId: 'markNotificationRead',
  tags: ['Monitoring'],
  summary: 'Mark a notification read',
  description: 'Idempotent: a notification already read answers the same.',
  errorResponses: [...authenticatedErrors, 404, 422],
})
  .input(markNotificationReadInput)
  .output(notificationReadSchema)
  .mutation(({ ctx, input }) =>
    ctx.services.monitoring.notifications.markRead.mutate({ accountId: ctx.principal.accountId, notificationId: input.id }),
  );
