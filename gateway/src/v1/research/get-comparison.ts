import { comparisonSchema, getComparisonInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const getComparison = protectedOperation({
  method: 'GET',
  path: '/comparisons/{id}',
  operationId: 'getComparison',
  tags: ['Research'],
  summary: 'Get a comparison',
  description: 'A stored comparison, as it was returned.',
  errorResponses: [...authenticatedErrors, 404],
})
  .input(getComparisonInput)
  .output(comparisonSchema)
  .query(({ ctx, input }) => ctx.services.research.comparisons.get.query({ accountId: ctx.principal.accountId, comparisonId: input.id }));
