import { describe, expect, it } from 'vitest';
import { backoffMinutes } from './run-check';
import { compare, maxSeenIds } from './compare';

const video = (id: string) => ({ type: 'video' as const, id, title: id, url: `https://www.youtube.com/watch?v=${id}` });
const hour = 3_600_000;

describe('compare', () => {
  it('the first observation is a baseline; later only unseen ids are changes, each once', () => {
    const baseline = compare(null, { kind: 'items', items: [video('a'), video('b')] }, 0);
    expect(baseline).toMatchObject({ baseline: true, changes: [], state: { seenIds: ['a', 'b'] } });
    const next = compare(baseline.state, { kind: 'items', items: [video('c'), video('a'), video('c')] }, hour);
    expect(next.changes.map((item) => item.id)).toEqual(['c']);
    expect(next.state.seenIds).toEqual(['c', 'a', 'b']);
    // An item that dropped off the page and came back is not new.
    expect(compare(next.state, { kind: 'items', items: [video('b')] }, 2 * hour).changes).toEqual([]);
  });

  it('remembers a bounded number of ids', () => {
    const many = Array.from({ length: maxSeenIds + 10 }, (_, i) => video(`v${i}`));
    expect(compare(null, { kind: 'items', items: many }, 0).state.seenIds).toHaveLength(maxSeenIds);
  });

  it('video: needs a previous rate, then a doubling with at least 50 views; comments need +10 and +10 %', () => {
    const observe = (viewCount: number, commentCount: number) => ({ kind: 'video' as const, item: video('x'), viewCount, commentCount });
    const first = compare(null, observe(1_000, 100), 0);
    expect(first.baseline).toBe(true);
    const second = compare(first.state, observe(1_100, 100), hour);
    expect(second.changes).toEqual([]);
    expect(second.state.video?.viewsPerHour).toBe(100);
    expect(compare(second.state, observe(1_290, 100), 2 * hour).changes).toEqual([]);
    expect(compare(second.state, observe(1_300, 100), 2 * hour).changes).toHaveLength(1);
    expect(compare(second.state, observe(1_100, 109), 2 * hour).changes).toEqual([]);
    expect(compare(second.state, observe(1_100, 110), 2 * hour).changes).toMatchObject([{ commentCount: 110, previousCommentCount: 100 }]);
  });

  it('backoff doubles the interval per failure up to the cap, or the interval when it is longer', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((failures) => backoffMinutes(15, failures, 1_440))).toEqual([30, 60, 120, 240, 480, 960, 1_440]);
    expect(backoffMinutes(10_080, 3, 1_440)).toBe(10_080);
  });
});
