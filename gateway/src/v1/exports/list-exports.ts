import { exportListSchema, listExportsInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const listExports = protectedOperation({
  method: 'GET',
  path: '/exports',
  operationId: 'listExports',
  tags: ['Exports'],
  summary: "List the caller's exports",
  description:
    'Newest first, of every project or of `projectId` only. Page with `limit` and `cursor`: pass each page’s `nextCursor` as `cursor` while `hasMore` is true.',
  errorResponses: [...authenticatedErrors, 404, 422],
})
  .input(listExportsInput)
  .output(exportListSchema)
  .query(({ ctx, input }) => ctx.services.research.exports.list.query({ accountId: ctx.principal.accountId, ...input }));
