import { getCommentsPageInputSchema, providerCommentsFetched, type Comments, type Served } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { CommentsPage } from '@vrs/youtube';
import type { ProviderDeps } from '../../provider-deps';
import { metaOf } from '../../versions/meta';
import { continuationPart, versionKey } from '../../versions/keys';

/**
 * One page in YouTube's default ranking ("Top"), the first or the one a continuation names. A
 * video without a comments section is an empty page with a warning: that answer is complete.
 */
export const getCommentsPage = ({ reads, youtube }: ProviderDeps) =>
  procedure.input(getCommentsPageInputSchema).query(async ({ input }): Promise<Served<Comments>> => {
    const { videoId, continuation } = input;
    const { version, cached } = await reads.read({
      kind: 'comments',
      key: versionKey(videoId, 'top', continuationPart(continuation)),
      refresh: input.refresh,
      savedOnly: input.savedOnly,
      fetch: () => youtube.getComments(videoId, { continuation }),
      event: providerCommentsFetched,
      eventData: (page: CommentsPage) => ({ videoId, mode: 'page' as const, count: page.comments.length }),
    });
    const { warnings, ...page } = version.data;
    return { result: { ...page, meta: metaOf(version, warnings, false) }, cached };
  });
