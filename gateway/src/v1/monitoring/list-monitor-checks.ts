import { monitorCheckListSchema, listMonitorChecksInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const listMonitorChecks = protectedOperation({
  method: 'GET',
  path: '/monitors/{id}/checks',
  operationId: 'listMonitorChecks',
  tags: ['Monitoring'],
  summary: "A monitor's check history",
  description:
    'Newest first, paged with `limit` and `cursor` (pass each page’s `nextCursor` while `hasMore` is true): when (`checkedAt`, ISO 8601), `outcome` (`baseline`, `unchanged`, `changed`, `failed`, `paused`), what changed, the credits charged and the notification created.',
  errorResponses: [...authenticatedErrors, 404, 422],
})
  .input(listMonitorChecksInput)
  .output(monitorCheckListSchema)
  .query(({ ctx, input: { id, ...page } }) =>
    ctx.services.monitoring.monitors.listChecks.query({ accountId: ctx.principal.accountId, monitorId: id, ...page }),
  );
