import { z } from 'zod';
import { defaultEvidenceSearchLimit, maxEvidenceSearchLimit, searchResultSchema } from '@vrs/contracts';
import { protectedProcedure } from '../../trpc';
import { meteredErrors } from '../errors';

export const searchPrivateEvidence = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/projects/{projectId}/search',
      operationId: 'searchPrivateEvidence',
      tags: ['Discovery'],
      summary: "Search a project's indexed evidence",
      description:
        'Full-text search (BM25) over the evidence of a project the caller owns. Results are best first; `index` is the 1-based rank.',
      protect: true,
      errorResponses: [...meteredErrors, 404, 422],
    },
    fieldCodes: { q: { missing: 'QUERY_REQUIRED' } },
    // Research builds every page field by field (toEvidence) and freezes it; its test holds the page to this schema.
    outputShapedBy: 'research',
  })
  .input(
    z.object({
      projectId: z.string().min(1),
      q: z.string().trim().min(1).max(500),
      limit: z
        .number()
        .int()
        .min(1)
        .max(maxEvidenceSearchLimit)
        .default(defaultEvidenceSearchLimit)
        .describe(`The most results to answer, best first (default ${defaultEvidenceSearchLimit}, at most ${maxEvidenceSearchLimit}).`),
    }),
  )
  .output(searchResultSchema)
  .query(({ ctx, input }) =>
    ctx.services.research.evidence.search.query({
      accountId: ctx.principal.accountId,
      projectId: input.projectId,
      q: input.q,
      limit: input.limit,
    }),
  );
