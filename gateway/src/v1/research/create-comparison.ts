import { comparisonSchema, createComparisonInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { meteredErrors } from '../errors';

export const createComparison = protectedOperation({
  method: 'POST',
  path: '/comparisons',
  operationId: 'createComparison',
  tags: ['Research'],
  summary: 'Compare videos or channels',
  description:
    'Side-by-side metrics of 2-5 videos (views, views per hour, engagement, duration, publish age) or channels (subscribers, videos, and medians over their recent uploads). For videos, with a model configured, `summary` is a cited summary of how what they say differs, from their transcripts (citations as in answers). A video or channel that cannot be read fails the comparison with its own error (404 `VIDEO_UNAVAILABLE`, ...). Stored: readable again with `GET /v1/comparisons/{id}`.',
  errorResponses: [...meteredErrors, 404, 422],
})
  .input(createComparisonInput)
  .output(comparisonSchema)
  .mutation(({ ctx, input }) =>
    ctx.services.research.comparisons.create.mutate({ accountId: ctx.principal.accountId, type: input.type, ids: input.ids }),
  );
