import { searchResultSchema, searchPrivateEvidenceInput } from '@vrs/contracts';
import { answerShared } from '../../openapi/rest-handler';
import { protectedOperation } from '../../trpc';
import { meteredErrors } from '../errors';

export const searchPrivateEvidence = protectedOperation({
  method: 'GET',
  path: '/projects/{projectId}/search',
  operationId: 'searchPrivateEvidence',
  tags: ['Discovery'],
  summary: "Search a project's indexed evidence",
  description:
    'Full-text search (BM25) over the evidence of a project the caller owns. Results are best first; `index` is the 1-based rank.',
  errorResponses: [...meteredErrors, 404, 422],
})
  .meta({ fieldCodes: { q: { missing: 'QUERY_REQUIRED' } } })
  .input(searchPrivateEvidenceInput)
  .output(searchResultSchema)
  .query(async ({ ctx, input }) =>
    answerShared(ctx, await ctx.services.research.evidence.search.query({ ...input, accountId: ctx.principal.accountId })),
  );
