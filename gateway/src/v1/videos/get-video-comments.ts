import { commentsSchema, defaultNewestCommentsLimit, getVideoCommentsInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { meteredErrors, videoErrors } from '../errors';
import { charged, providerFieldCodes, readMode } from '../providers/provider-params';

export const getVideoComments = protectedOperation({
  method: 'GET',
  path: '/providers/{provider}/videos/{id}/comments',
  operationId: 'getVideoComments',
  tags: ['Videos'],
  summary: 'Video comments',
  description:
    "Without `newest`: one page, with `continuation` for the next: in YouTube's default ranking, or with `sort=newest` the first page of YouTube's newest-first order (about 20 comments, ordered by published time, the same rules as a collection), priced as a page. With `newest=true`: a bounded newest-first collection (`limit`, default 500, max 5000) following YouTube's continuations, with `complete`, `pagesFetched`, `topLevelCount`, `replyCount`, `remainingContinuations` and `totalCount` when YouTube reports it. A collection is ordered by published time, newest first (a pinned comment is flagged `isPinned`, not put first); `complete` is true only when every page was read and the threads account for YouTube's `totalCount`. Inspect `meta.partial` and `meta.warnings` before treating a collection as complete: they say when the bound was reached, a page failed, YouTube stopped serving pages early, or YouTube would not sort by time. A collection is priced apart from a page. A video that cannot be read answers as for its metadata (404 `VIDEO_UNAVAILABLE`, 403/451 restrictions).",
  errorResponses: [...meteredErrors, ...videoErrors, 422],
})
  .meta({
    fieldCodes: providerFieldCodes,
    reserveVariant: (raw) => (raw.newest === 'true' ? 'collectionFresh' : 'fresh'),
    savedVariant: (raw) => (raw.refresh === 'true' ? undefined : raw.newest === 'true' ? 'collectionCached' : 'cached'),
  })
  .input(getVideoCommentsInput)
  .output(commentsSchema)
  .query(async ({ ctx, input }) => {
    const { comments } = ctx.services.provider;
    const videoId = input.id;
    const mode = readMode(ctx, input);
    if (!input.newest)
      return charged(ctx, await comments.getPage.query({ videoId, continuation: input.continuation, sort: input.sort, ...mode }));
    return charged(
      ctx,
      await comments.collectNewest.query({ videoId, limit: input.limit ?? defaultNewestCommentsLimit, replies: input.replies, ...mode }),
      'collection',
    );
  });
