import { exportListSchema, listExportsInput } from '@vrs/contracts';
import { protectedProcedure } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const listExports = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/exports',
      operationId: 'listExports',
      tags: ['Exports'],
      summary: "List the caller's exports",
      description:
        'Newest first, of every project or of `projectId` only. Page with `limit` and `cursor`: pass each page’s `nextCursor` as `cursor` while `hasMore` is true.',
      protect: true,
      errorResponses: [...authenticatedErrors, 404, 422],
    },
  })
  .input(listExportsInput)
  .output(exportListSchema)
  .query(({ ctx, input }) => ctx.services.research.exports.list.query({ accountId: ctx.principal.accountId, ...input }));
