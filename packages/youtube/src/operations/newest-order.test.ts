import { describe, expect, it } from 'vitest';
import type { Comment } from '../shapes/comments';
import { outOfTimeOrder, sortNewestFirst, unreachedComments } from './newest-order';

const comment = (id: string, publishedTimeText: string, extra: Partial<Comment> = {}): Comment => ({
  id,
  text: id,
  author: { id: 'a', name: 'a', isCreator: false, isVerified: false },
  likeCount: 0,
  replyCount: 0,
  publishedTimeText,
  isPinned: false,
  isHearted: false,
  ...extra,
});

describe('newest-first order', () => {
  it('sorts by published age, keeps the platform order within one age, and lets a pinned comment take its place by age', () => {
    const sorted = sortNewestFirst([
      comment('pinned', '4 years ago (edited)', { isPinned: true }),
      comment('b', '2 days ago'),
      comment('a', '3 hours ago'),
      comment('c', '2 days ago'),
      comment('odd', 'sometime'),
      comment('old', '1 year ago'),
    ]);
    expect(sorted.map((c) => c.id)).toEqual(['a', 'b', 'c', 'old', 'pinned', 'odd']);
    expect(sorted.find((c) => c.id === 'pinned')!.isPinned).toBe(true);
  });

  it('notices pages that are not in time order, ignoring a pinned comment on top and replies', () => {
    expect(outOfTimeOrder([comment('p', '4 years ago', { isPinned: true }), comment('a', '1 hour ago'), comment('b', '2 days ago')])).toBe(
      false,
    );
    expect(outOfTimeOrder([comment('a', '1 hour ago'), comment('r', '5 years ago', { parentId: 'a' }), comment('b', '1 day ago')])).toBe(
      false,
    );
    expect(outOfTimeOrder([comment('a', '2 years ago'), comment('b', '1 day ago')])).toBe(true);
  });

  it('counts comments the collected threads cannot account for, beyond a rounding slack', () => {
    const threads = [comment('a', '1 day ago', { replyCount: 5 }), comment('b', '1 day ago')];
    expect(unreachedComments(threads, undefined)).toBe(0);
    expect(unreachedComments(threads, 7)).toBe(0);
    expect(unreachedComments(threads, 15)).toBe(0);
    expect(unreachedComments(threads, 21_051)).toBe(21_044);
  });
});
