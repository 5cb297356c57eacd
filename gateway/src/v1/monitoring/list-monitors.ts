import { monitorListSchema, listMonitorsInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const listMonitors = protectedOperation({
  method: 'GET',
  path: '/monitors',
  operationId: 'listMonitors',
  tags: ['Monitoring'],
  summary: "List the caller's monitors",
  description: 'Newest first. Page with `limit` and `cursor`: pass each page’s `nextCursor` as `cursor` while `hasMore` is true.',
  errorResponses: [...authenticatedErrors, 422],
})
  .input(listMonitorsInput)
  .output(monitorListSchema)
  .query(({ ctx, input }) => ctx.services.monitoring.monitors.list.query({ accountId: ctx.principal.accountId, ...input }));
