import { exportSchema, getExportInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const getExport = protectedOperation({
  method: 'GET',
  path: '/exports/{id}',
  operationId: 'getExport',
  tags: ['Exports'],
  summary: 'Get an export',
  description: 'Status (`pending`, `ready`, `failed`) and, once ready, the number of evidence items and the size of the file.',
  errorResponses: [...authenticatedErrors, 404],
})
  .input(getExportInput)
  .output(exportSchema)
  .query(
    async ({ ctx, input }) =>
      (await ctx.services.research.exports.get.query({ accountId: ctx.principal.accountId, exportId: input.id })).export,
  );
