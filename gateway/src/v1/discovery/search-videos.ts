import { z } from 'zod';
import { providerParam, videoSearchResultsSchema, videoSearchSortSchema } from '@vrs/contracts';
import { protectedProcedure } from '../../trpc';
import { meteredErrors } from '../errors';
import { charged, continuationParam, providerFieldCodes } from '../providers/provider-params';

export const searchVideos = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/providers/{provider}/search',
      operationId: 'searchVideos',
      tags: ['Discovery'],
      summary: 'Search videos',
      description:
        "Video search results as YouTube ranks them, one page at a time. Always answered by YouTube (a search is not reused from saved data). `sort` (an extension): `relevance` (YouTube's order, the default), `upload_date` (newest first) or `view_count` (most viewed first); a `continuation` keeps the order of its first page.",
      protect: true,
      errorResponses: [...meteredErrors, 422],
    },
    fieldCodes: { ...providerFieldCodes, q: { missing: 'QUERY_REQUIRED' } },
  })
  .input(
    z.strictObject({
      provider: providerParam(),
      q: z.string().trim().min(1).max(200).describe('What to search for.'),
      sort: videoSearchSortSchema
        .default('relevance')
        .describe('Extension: the order of the results (`relevance`, `upload_date` or `view_count`).'),
      continuation: continuationParam(),
    }),
  )
  .output(videoSearchResultsSchema)
  .query(async ({ ctx, input }) =>
    charged(ctx, await ctx.services.provider.videos.search.query({ q: input.q, sort: input.sort, continuation: input.continuation })),
  );
