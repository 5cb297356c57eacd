import { z } from 'zod';
import { commentsPageSortSchema, commentsSchema, defaultNewestCommentsLimit, maxNewestCommentsLimit, providerParam } from '@vrs/contracts';
import { protectedProcedure } from '../../trpc';
import { meteredErrors, videoErrors } from '../errors';
import {
  charged,
  continuationParam,
  providerFieldCodes,
  queryFlag,
  readMode,
  refreshParam,
  videoIdParam,
} from '../providers/provider-params';

const newestWithContinuation =
  'continuation pages on from the page that issued it; a newest-first collection always starts from the newest comment';

const sortOfPage =
  'sort orders the first page only (a continuation carries the order of the page that issued it), and a newest-first collection is newest first already';

const onlyWithNewest = "applies to a newest-first collection only: add newest=true (a page of the default ranking has YouTube's own size)";

export const getVideoComments = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/providers/{provider}/videos/{id}/comments',
      operationId: 'getVideoComments',
      tags: ['Videos'],
      summary: 'Video comments',
      description:
        "Without `newest`: one page, with `continuation` for the next: in YouTube's default ranking, or with `sort=newest` the first page of YouTube's newest-first order (about 20 comments, ordered by published time, the same rules as a collection), priced as a page. With `newest=true`: a bounded newest-first collection (`limit`, default 500, max 5000) following YouTube's continuations, with `complete`, `pagesFetched`, `topLevelCount`, `replyCount`, `remainingContinuations` and `totalCount` when YouTube reports it. A collection is ordered by published time, newest first (a pinned comment is flagged `isPinned`, not put first); `complete` is true only when every page was read and the threads account for YouTube's `totalCount`. Inspect `meta.partial` and `meta.warnings` before treating a collection as complete: they say when the bound was reached, a page failed, YouTube stopped serving pages early, or YouTube would not sort by time. A collection is priced apart from a page. A video that cannot be read answers as for its metadata (404 `VIDEO_UNAVAILABLE`, 403/451 restrictions).",
      protect: true,
      errorResponses: [...meteredErrors, ...videoErrors, 422],
    },
    fieldCodes: providerFieldCodes,
    reserveVariant: (raw) => (raw.newest === 'true' ? 'collectionFresh' : 'fresh'),
    savedVariant: (raw) => (raw.refresh === 'true' ? undefined : raw.newest === 'true' ? 'collectionCached' : 'cached'),
  })
  .input(
    z
      .strictObject({
        provider: providerParam(),
        id: videoIdParam(),
        refresh: refreshParam(),
        continuation: continuationParam(),
        sort: commentsPageSortSchema
          .optional()
          .describe(
            "Extension, a first page's order: `top` (YouTube's default ranking, the default) or `newest` (newest first, one page at a page's price). Not with `continuation` (the token carries its order) nor with `newest=true`.",
          ),
        newest: queryFlag('Collect newest first, following continuations, up to `limit` comments.'),
        limit: z.coerce
          .number<number>()
          .int()
          .min(1)
          .max(maxNewestCommentsLimit)
          .optional()
          .describe(
            `Extension, only with \`newest=true\`: the most comments to collect (replies included; default ${defaultNewestCommentsLimit}). A page is YouTube's size, so \`limit\` without \`newest=true\` is a 422.`,
          ),
        replies: queryFlag(
          'Extension, only with `newest=true`: also collect the replies of each comment (they count against `limit`); `replies=true` without it is a 422.',
        ),
      })
      .refine((input) => !(input.newest && input.continuation), { path: ['continuation'], message: newestWithContinuation })
      .refine((input) => input.sort === undefined || !(input.newest || input.continuation), { path: ['sort'], message: sortOfPage })
      .refine((input) => input.newest || input.limit === undefined, { path: ['limit'], message: onlyWithNewest })
      .refine((input) => input.newest || !input.replies, { path: ['replies'], message: onlyWithNewest }),
  )
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
