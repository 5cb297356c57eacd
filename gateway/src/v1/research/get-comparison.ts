import { comparisonSchema, getComparisonInput } from '@vrs/contracts';
import { protectedProcedure } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const getComparison = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/comparisons/{id}',
      operationId: 'getComparison',
      tags: ['Research'],
      summary: 'Get a comparison',
      description: 'A stored comparison, as it was returned.',
      protect: true,
      errorResponses: [...authenticatedErrors, 404],
    },
  })
  .input(getComparisonInput)
  .output(comparisonSchema)
  .query(({ ctx, input }) => ctx.services.research.comparisons.get.query({ accountId: ctx.principal.accountId, comparisonId: input.id }));
