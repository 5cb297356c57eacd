import { hoursFromRelativeText } from '@vrs/contracts';
import type { Comment } from '../shapes/comments';

/** Age in hours from "4 years ago (edited)"; unreadable texts sort last. */
const ageOf = (comment: Comment) => hoursFromRelativeText(comment.publishedTimeText) ?? Number.POSITIVE_INFINITY;

/**
 * Newest first by published time. YouTube gives only relative times ("2 years ago"), so comments of
 * the same age keep the platform's order; a pinned comment stays flagged `isPinned` but takes its
 * place by age. Relative times take few distinct values, so each is read once and the comments are
 * grouped by age, groups joined youngest first: no comparison sort (ADR 0074).
 */
export function sortNewestFirst(comments: readonly Comment[]): Comment[] {
  const ageOfText = new Map<string, number>();
  const byAge = new Map<number, Comment[]>();
  for (const comment of comments) {
    let age = ageOfText.get(comment.publishedTimeText);
    if (age === undefined) {
      age = ageOf(comment);
      ageOfText.set(comment.publishedTimeText, age);
    }
    const sameAge = byAge.get(age);
    if (sameAge) sameAge.push(comment);
    else byAge.set(age, [comment]);
  }
  const sorted: Comment[] = [];
  for (const [, sameAge] of [...byAge].sort(([a], [b]) => a - b)) sorted.push(...sameAge);
  return sorted;
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
