import { getCommentsPageInputSchema, providerCommentsFetched, type Comments, type Served } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { CommentsPage } from '@vrs/youtube';
import type { ProviderDeps } from '../../provider-deps';
import { metaOf } from '../../versions/meta';
import { continuationPart, versionKey } from '../../versions/keys';

/**
 * One page: the first in YouTube's default ranking ("Top") or newest first, or the one a
 * continuation names (the token carries its order, so its key needs no sort). A video without a
 * comments section is an empty page with a warning: that answer is complete.
 */
export const getCommentsPage = ({ reads, youtube }: ProviderDeps) =>
  procedure.input(getCommentsPageInputSchema).query(async ({ input, ctx }): Promise<Served<Comments>> => {
    const { videoId, continuation, sort } = input;
    const { version, cached } = await reads.read({
      request: ctx,
      kind: 'comments',
      key: versionKey(videoId, continuation ? 'top' : sort, continuationPart(continuation)),
      refresh: input.refresh,
      savedOnly: input.savedOnly,
      fetch: () => youtube.getComments(videoId, { continuation, sort }),
      event: providerCommentsFetched,
      eventData: (page: CommentsPage) => ({ videoId, mode: 'page' as const, count: page.comments.length }),
    });
    const { warnings, partial = false, ...page } = version.data;
    return { result: { ...page, meta: metaOf(version, warnings, partial) }, cached };
  });
