import { hoursFromRelativeText } from '@vrs/contracts';
import type { Comment } from '../shapes/comments';

/** Age in hours from "4 years ago (edited)"; unreadable texts sort last. */
const ageOf = (comment: Comment) => hoursFromRelativeText(comment.publishedTimeText) ?? Number.POSITIVE_INFINITY;

/**
 * Newest first by published time. YouTube gives only relative times ("2 years ago"), so comments of
 * the same age keep the platform's order (the sort is stable). A pinned comment takes its place by
 * age like any other: it stays flagged `isPinned`, but does not lead a newest-first collection.
 */
export function sortNewestFirst(comments: readonly Comment[]): Comment[] {
  return comments
    .map((comment, position) => ({ comment, position, age: ageOf(comment) }))
    .sort((a, b) => a.age - b.age || a.position - b.position)
    .map(({ comment }) => comment);
}

/** True when the platform's own order of the top-level, unpinned comments ever goes from older to newer. */
export function outOfTimeOrder(comments: readonly Comment[]): boolean {
  let previous = 0;
  for (const comment of comments) {
    if (comment.parentId || comment.isPinned) continue;
    const age = ageOf(comment);
    if (age < previous) return true;
    if (Number.isFinite(age)) previous = age;
  }
  return false;
}

/**
 * Comments the platform counts that the collected threads cannot account for: each top-level
 * comment stands for itself and its replies. Far more than a rounding slack (deleted or held
 * comments) means the pages ended before the threads did.
 */
export function unreachedComments(comments: readonly Comment[], totalCount: number | undefined): number {
  if (totalCount === undefined) return 0;
  const accounted = comments.filter((comment) => !comment.parentId).reduce((sum, thread) => sum + 1 + thread.replyCount, 0);
  const missing = totalCount - accounted;
  const slack = Math.max(10, Math.ceil(totalCount * 0.02));
  return missing > slack ? missing : 0;
}
