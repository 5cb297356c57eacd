import type { Comment, NewestComments } from '../shapes/comments';
import type { Upstream } from '../transport/upstream';
import {
  commentsSectionToken,
  createThreadPageReader,
  fetchReplyPage,
  noNewestOrder,
  openNewestPage,
  sortedHere,
  type CommentThreadPage,
} from './comments-pages';
import { noCommentsSection } from './get-comments';
import { outOfTimeOrder, sortNewestFirst, unreachedComments } from './newest-order';

export interface NewestCommentsOptions {
  /** Bound on comments collected (top-level and replies together). */
  limit: number;
  includeReplies?: boolean;
}

/**
 * Newest-first collection: the sort menu's "Newest" page, then each page's continuation, until the
 * limit or the end. A failed page ends the walk with what was collected, marked partial; only a
 * failure before anything was collected is thrown. The result is ordered by published time.
 * `complete`: every page was read AND the threads account for the platform's total. Without a
 * "Newest" entry, the top comments are sorted here, marked partial with a warning.
 */
export async function getNewestComments(upstream: Upstream, videoId: string, options: NewestCommentsOptions): Promise<NewestComments> {
  const { limit, includeReplies = false } = options;
  const comments: Comment[] = [];
  const warnings: string[] = [];
  let pagesFetched = 0;
  let skippedAtBound = 0; // continuations not followed because the bound was reached
  let skippedByFailure = 0; // continuations whose page failed
  let truncated = false; // comments of a fetched page left out because the bound was reached

  const sectionToken = await commentsSectionToken(upstream, videoId);
  if (!sectionToken)
    return summary([], { complete: true, sorted: true, pagesFetched, remaining: 0, totalCount: undefined, warnings: [noCommentsSection] });

  // With replies, each thread's replies take room before the next page is needed: no read-ahead.
  const readPage = createThreadPageReader(upstream, (threads) => !includeReplies && comments.length + threads < limit);
  const start = await openNewestPage(upstream, sectionToken, readPage);
  pagesFetched += start.pagesFetched;
  const totalCount = start.topPage.header?.totalCount;
  const { platformSortsByTime } = start;
  let page: CommentThreadPage | undefined = start.page;

  const room = () => limit - comments.length;

  async function collectReplies(parentId: string, firstToken: string): Promise<void> {
    let token: string | undefined = firstToken;
    while (token) {
      if (room() <= 0) {
        skippedAtBound += 1;
        return;
      }
      try {
        const replyPage = await fetchReplyPage(upstream, token, parentId);
        pagesFetched += 1;
        if (replyPage.replies.length > room()) truncated = true;
        comments.push(...replyPage.replies.slice(0, room()));
        token = replyPage.continuation;
      } catch (error) {
        skippedByFailure += 1;
        warnings.push(`Replies to ${parentId} stopped: ${(error as Error).message}`);
        return;
      }
    }
  }

  while (page) {
    for (const thread of page.threads) {
      if (room() <= 0) {
        truncated = true;
        break;
      }
      comments.push(thread.comment);
      if (includeReplies && thread.repliesToken) await collectReplies(thread.comment.id, thread.repliesToken);
    }
    const token: string | undefined = page.continuation;
    page = undefined;
    if (!token) break;
    if (room() <= 0) {
      skippedAtBound += 1;
      break;
    }
    try {
      page = await readPage(token);
      pagesFetched += 1;
    } catch (error) {
      skippedByFailure += 1;
      warnings.push(`Comment page ${pagesFetched + 1} failed: ${(error as Error).message}`);
    }
  }

  if (truncated || skippedAtBound > 0) {
    warnings.unshift(`Stopped at the limit of ${limit} comments; ${skippedAtBound} continuation(s) not followed.`);
  }
  const remaining = skippedAtBound + skippedByFailure;
  const unreached = remaining === 0 && !truncated ? unreachedComments(comments, totalCount) : 0;
  if (unreached > 0) {
    warnings.push(
      `YouTube ended its comment pages after ${comments.length} comments, while it counts ${totalCount}: about ${unreached} cannot be reached this way.`,
    );
  }
  if (!platformSortsByTime) {
    warnings.push(noNewestOrder);
  } else if (outOfTimeOrder(comments)) {
    warnings.push(sortedHere);
  }
  const complete = remaining === 0 && !truncated && unreached === 0;
  return summary(sortNewestFirst(comments), { complete, sorted: platformSortsByTime, pagesFetched, remaining, totalCount, warnings });

  function summary(
    collected: Comment[],
    state: { complete: boolean; sorted: boolean; pagesFetched: number; remaining: number; totalCount?: number; warnings: string[] },
  ): NewestComments {
    const replyCount = collected.filter((comment) => comment.parentId).length;
    return {
      videoId,
      comments: collected,
      complete: state.complete,
      pagesFetched: state.pagesFetched,
      topLevelCount: collected.length - replyCount,
      replyCount,
      remainingContinuations: state.remaining,
      ...(state.totalCount !== undefined ? { totalCount: state.totalCount } : {}),
      partial: !state.complete || !state.sorted,
      warnings: state.warnings,
    };
  }
}
