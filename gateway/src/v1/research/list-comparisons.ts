import { comparisonListSchema, listComparisonsInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const listComparisons = protectedOperation({
  method: 'GET',
  path: '/comparisons',
  operationId: 'listComparisons',
  tags: ['Research'],
  summary: "List the caller's comparisons",
  description: 'Newest first. Page with `limit` and `cursor`: pass each page’s `nextCursor` as `cursor` while `hasMore` is true.',
  errorResponses: [...authenticatedErrors, 422],
})
  .input(listComparisonsInput)
  .output(comparisonListSchema)
  .query(({ ctx, input }) => ctx.services.research.comparisons.list.query({ accountId: ctx.principal.accountId, ...input }));
