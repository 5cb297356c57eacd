import { hoursFromRelativeText } from '@vrs/contracts';
import type { Comment } from '../shapes/comments';

/** Age in hours from "4 years ago (edited)"; unreadable texts sort last. */
const ageOf = (comment: Comment) => hoursFromRelativeText(comment.publishedTimeText) ?? Number.POSITIVE_INFINITY;

/**
 * Newest first by published time. YouTube gives only relative times ("2 years ago"), so comments of
 * the same age keep the platform's order. A pinned comment takes its place by age like any other: it
 * stays flagged `isPinned`, but does not lead a newest-first collection.
 *
 * Relative times take few distinct values (a number and a unit), so each text is read once and the
 * comments go into one list per age, in the platform's order, lists joined youngest first: no
 * comparison per pair. A collection of 5,000 comments spent 15 ms in the comparison sort, in the
 * same turn of the event loop as the rest of the collection's end.
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
