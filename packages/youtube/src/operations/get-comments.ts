import type { CommentsPage } from '../shapes/comments';
import type { Upstream } from '../transport/upstream';
import { commentsSectionToken, fetchThreadPage, noNewestOrder, openNewestPage, sortedHere } from './comments-pages';
import { outOfTimeOrder, sortNewestFirst } from './newest-order';

export const noCommentsSection = 'YouTube shows no comments section for this video (comments turned off, or a live stream).';

export interface CommentsPageOptions {
  /** A page's continuation: it carries the order of the page that issued it. */
  continuation?: string;
  /** The first page's order: YouTube's default ranking ("Top"), or its "Newest" entry. */
  sort?: 'top' | 'newest';
}

/**
 * One page of top-level comments: the first in YouTube's default ranking ("Top") or newest first,
 * or the one a continuation names. A newest-first page follows the rules of the newest-first
 * collection (ADR 0021): ordered by published time, a pinned comment flagged not leading, and
 * marked partial with a warning when YouTube offers no newest-first order.
 */
export async function getComments(upstream: Upstream, videoId: string, options: CommentsPageOptions = {}): Promise<CommentsPage> {
  const token = options.continuation ?? (await commentsSectionToken(upstream, videoId));
  if (!token) return { videoId, comments: [], warnings: [noCommentsSection] };
  if (options.sort === 'newest' && !options.continuation) return newestPage(upstream, videoId, token);
  const page = await fetchThreadPage(upstream, token);
  const totalCount = page.header?.totalCount;
  return {
    videoId,
    comments: page.threads.map((thread) => thread.comment),
    ...(page.continuation ? { continuation: page.continuation } : {}),
    ...(totalCount !== undefined ? { totalCount } : {}),
    warnings: [],
  };
}

async function newestPage(upstream: Upstream, videoId: string, sectionToken: string): Promise<CommentsPage> {
  const { topPage, page, platformSortsByTime } = await openNewestPage(upstream, sectionToken);
  const comments = page.threads.map((thread) => thread.comment);
  const totalCount = topPage.header?.totalCount;
  const warnings = !platformSortsByTime ? [noNewestOrder] : outOfTimeOrder(comments) ? [sortedHere] : [];
  return {
    videoId,
    comments: sortNewestFirst(comments),
    ...(page.continuation ? { continuation: page.continuation } : {}),
    ...(totalCount !== undefined ? { totalCount } : {}),
    ...(platformSortsByTime ? {} : { partial: true }),
    warnings,
  };
}
