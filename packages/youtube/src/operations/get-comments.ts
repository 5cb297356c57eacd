import type { CommentsPage } from '../shapes/comments';
import type { Upstream } from '../transport/upstream';
import { commentsSectionToken, fetchThreadPage, totalCountOf } from './comments-pages';

export const noCommentsSection = 'YouTube shows no comments section for this video (comments turned off, or a live stream).';

/** One page of top-level comments in YouTube's default ranking ("Top"). */
export async function getComments(upstream: Upstream, videoId: string, options: { continuation?: string } = {}): Promise<CommentsPage> {
  const token = options.continuation ?? (await commentsSectionToken(upstream, videoId));
  if (!token) return { videoId, comments: [], warnings: [noCommentsSection] };
  const page = await fetchThreadPage(upstream, token);
  const totalCount = totalCountOf(page.header);
  return {
    videoId,
    comments: page.threads.map((thread) => thread.comment),
    ...(page.continuation ? { continuation: page.continuation } : {}),
    ...(totalCount !== undefined ? { totalCount } : {}),
    warnings: [],
  };
}
