import { videoSearchResultsSchema, searchVideosInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { meteredErrors } from '../errors';
import { charged, providerFieldCodes } from '../providers/provider-params';

export const searchVideos = protectedOperation({
  method: 'GET',
  path: '/providers/{provider}/search',
  operationId: 'searchVideos',
  tags: ['Discovery'],
  summary: 'Search videos',
  description:
    "Video search results as YouTube ranks them, one page at a time. Always answered by YouTube (a search is not reused from saved data). `sort` (an extension): `relevance` (YouTube's order, the default), `upload_date` (newest first) or `view_count` (most viewed first); a `continuation` keeps the order of its first page.",
  errorResponses: [...meteredErrors, 422],
})
  .meta({ fieldCodes: { ...providerFieldCodes, q: { missing: 'QUERY_REQUIRED' } } })
  .input(searchVideosInput)
  .output(videoSearchResultsSchema)
  .query(async ({ ctx, input }) =>
    charged(ctx, await ctx.services.provider.videos.search.query({ q: input.q, sort: input.sort, continuation: input.continuation })),
  );
