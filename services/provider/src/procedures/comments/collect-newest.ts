import { collectNewestCommentsInputSchema, providerCommentsFetched, type Comments, type Served } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { NewestComments } from '@vrs/youtube';
import type { ProviderDeps } from '../../provider-deps';
import { metaOf } from '../../versions/meta';
import { versionKey } from '../../versions/keys';

/**
 * A newest-first collection of up to `limit` comments. Replies only when asked for: as old as their
 * thread, they would crowd the newest comments out of the bound. A collection cut short is answered
 * as it is, with `meta.partial` and warnings.
 */
export const collectNewestComments = ({ reads, youtube }: ProviderDeps) =>
  procedure.input(collectNewestCommentsInputSchema).query(async ({ input, ctx }): Promise<Served<Comments>> => {
    const { videoId, limit, replies } = input;
    const { version, cached } = await reads.read({
      request: ctx,
      kind: 'newestComments',
      key: versionKey(videoId, 'newest', limit, replies ? 'with-replies' : 'top-level'),
      refresh: input.refresh,
      savedOnly: input.savedOnly,
      fetch: () => youtube.getNewestComments(videoId, { limit, includeReplies: replies }),
      event: providerCommentsFetched,
      eventData: (collection: NewestComments) => ({ videoId, mode: 'newest' as const, count: collection.comments.length }),
    });
    const { warnings, partial, ...collection } = version.data;
    return { result: { ...collection, meta: metaOf(version, warnings, partial) }, cached };
  });
