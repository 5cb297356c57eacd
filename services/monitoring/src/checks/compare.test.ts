import { describe, expect, it } from 'vitest';
import { backoffMinutes } from './run-check';
import { compare, maxSeenCommentIds, maxSeenIds } from './compare';
import { describeChanges } from './describe-changes';

const video = (id: string) => ({ type: 'video' as const, id, title: id, url: `https://www.youtube.com/watch?v=${id}` });
const playlist = (id: string) => ({
  type: 'playlist' as const,
  id,
  title: `List ${id}`,
  url: `https://www.youtube.com/playlist?list=${id}`,
});
const comment = (id: string) => ({
  type: 'comment' as const,
  id,
  title: 'Comment by Ann',
  url: `https://www.youtube.com/watch?v=x&lc=${id}`,
  author: 'Ann',
  text: `text ${id}`,
});
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
    const observe = (viewCount: number, commentCount: number) => ({
      kind: 'video' as const,
      item: video('x'),
      viewCount,
      commentCount,
      comments: [],
    });
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

  it('channel: uploads and playlists each have a baseline, then each new one is a change once', () => {
    const observe = (uploads: string[], playlists: string[]) => ({
      kind: 'channel' as const,
      uploads: uploads.map(video),
      playlists: playlists.map(playlist),
    });
    const first = compare(null, observe(['a'], ['PL1', 'PL2']), 0);
    expect(first).toMatchObject({ baseline: true, changes: [], state: { seenIds: ['a'], playlistIds: ['PL1', 'PL2'] } });
    const second = compare(first.state, observe(['a'], ['PL3', 'PL1', 'PL2']), hour);
    expect(second).toMatchObject({ baseline: false, changes: [{ type: 'playlist', id: 'PL3' }] });
    expect(second.state.playlistIds).toEqual(['PL3', 'PL1', 'PL2']);
    expect(compare(second.state, observe(['a'], ['PL3', 'PL1', 'PL2']), 2 * hour).changes).toEqual([]);
    const both = compare(second.state, observe(['b', 'a'], ['PL4', 'PL3']), 2 * hour);
    expect(both.changes.map((item) => `${item.type}:${item.id}`)).toEqual(['video:b', 'playlist:PL4']);
    // State saved before playlists were watched: their first read is a baseline, uploads still compare.
    const upgraded = compare({ seenIds: ['a'] }, observe(['b', 'a'], ['PL1', 'PL2']), hour);
    expect(upgraded.changes.map((item) => item.id)).toEqual(['b']);
    expect(upgraded.state.playlistIds).toEqual(['PL1', 'PL2']);
  });

  it('video: new comments after the baseline, each once; the remembered ids are bounded', () => {
    const observe = (comments: string[]) => ({
      kind: 'video' as const,
      item: video('x'),
      viewCount: 1_000,
      commentCount: 100,
      comments: comments.map(comment),
    });
    const first = compare(null, observe(['c2', 'c1']), 0);
    expect(first).toMatchObject({ baseline: true, changes: [], state: { commentIds: ['c2', 'c1'] } });
    const second = compare(first.state, observe(['c4', 'c3', 'c2']), hour);
    expect(second.changes).toEqual([comment('c4'), comment('c3')]);
    expect(second.state.commentIds).toEqual(['c4', 'c3', 'c2', 'c1']);
    expect(compare(second.state, observe(['c4', 'c3', 'c2']), 2 * hour).changes).toEqual([]);
    // No comment ids saved yet (an older state): a baseline for comments, not 2 "new" ones.
    const { commentIds: _, ...older } = first.state;
    expect(compare(older, observe(['c4', 'c3']), hour).changes).toEqual([]);
    const many = Array.from({ length: maxSeenCommentIds + 5 }, (_, i) => `n${i}`);
    expect(compare(second.state, observe(many), 2 * hour).state.commentIds).toHaveLength(maxSeenCommentIds);
  });

  it('describes playlists, comments and mixed changes in one notification each', () => {
    const channel = { kind: 'channel' as const, id: 'UCx' };
    expect(describeChanges(channel, [playlist('PL1')])).toMatchObject({
      kind: 'new_playlists',
      title: '1 new playlist on channel UCx',
      body: '- List PL1 (https://www.youtube.com/playlist?list=PL1)',
    });
    expect(describeChanges(channel, [video('v'), playlist('PL1'), playlist('PL2')])).toMatchObject({
      kind: 'new_uploads',
      title: '1 new upload and 2 new playlists on channel UCx',
    });
    const videoQuery = { kind: 'video' as const, id: 'x' };
    expect(describeChanges(videoQuery, [comment('c1'), comment('c2')])).toEqual({
      kind: 'new_comments',
      title: '2 new comments on video x',
      body: '- Ann: text c1 (https://www.youtube.com/watch?v=x&lc=c1)\n- Ann: text c2 (https://www.youtube.com/watch?v=x&lc=c2)',
    });
    const jump = { ...video('x'), viewCount: 2, previousViewCount: 1, commentCount: 20, previousCommentCount: 5 };
    expect(describeChanges(videoQuery, [jump, comment('c1')])).toMatchObject({
      kind: 'video_activity',
      title: 'Activity jump on "x" and 1 new comment',
    });
  });

  it('backoff doubles the interval per failure up to the cap, or the interval when it is longer', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((failures) => backoffMinutes(15, failures, 1_440))).toEqual([30, 60, 120, 240, 480, 960, 1_440]);
    expect(backoffMinutes(10_080, 3, 1_440)).toBe(10_080);
  });
});
