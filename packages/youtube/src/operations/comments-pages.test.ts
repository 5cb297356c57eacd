import { describe, expect, it } from 'vitest';
import { Parser } from 'youtubei.js';
import '../transport/youtubei-log';
import { loadRecordings, type Recording } from '@vrs/testing/upstreams/youtube/recordings';
import { parseReplayDirs } from '@vrs/testing/upstreams/youtube/replay-dirs';
import type { Upstream } from '../transport/upstream';
import { commentsSectionToken, fetchReplyPage, parseThreadPage, type RawPage } from './comments-pages';

// What youtubei.js reads of a comment page, pinned on hand-edited copies of a recorded one: an
// upgrade of youtubei.js that reads these fields otherwise fails here.

// Raw InnerTube JSON, edited by hand below.
type Json = Record<string, any>;

const continuationAnswers = loadRecordings(parseReplayDirs()).recordings.filter(
  (recording) => recording.key.endpoint === 'next' && recording.key.keys.continuation && recording.status === 200,
);
const pageOf = (id: string): Json => JSON.parse((continuationAnswers.find((recording) => recording.id === id) as Recording).body);
const read = (page: Json) => parseThreadPage(structuredClone(page) as RawPage);
/** An upstream whose every /next answer is `page`, parsed by youtubei.js. */
const answering = (page: Json) => ({ parsed: async () => Parser.parseResponse(structuredClone(page)) }) as unknown as Upstream;

describe('comment pages, as youtubei.js reads them', () => {
  const newestId = 'youtube/comments/xaQJbozY_Is.newest.json#0';
  const threadsOf = (page: Json): Json[] =>
    page.onResponseReceivedEndpoints
      .flatMap((group: Json) => (group.reloadContinuationItemsCommand ?? group.appendContinuationItemsAction).continuationItems)
      .filter((item: Json) => item.commentThreadRenderer);
  const viewOf = (page: Json, index: number): Json => threadsOf(page)[index]!.commentThreadRenderer.commentViewModel.commentViewModel;
  const mutationsOf = (page: Json): Json[] => page.frameworkUpdates.entityBatchUpdate.mutations;
  const payloadOf = (page: Json, kind: string, key: string): Json =>
    mutationsOf(page).find((mutation) => mutation.payload?.[kind]?.key === key)?.payload[kind];
  const entityOf = (page: Json, index: number) => payloadOf(page, 'commentEntityPayload', viewOf(page, index).commentKey);

  it('reads a pinned comment, a verified author, the creator and the header of a first page', () => {
    const page = read(pageOf(newestId));
    expect(page.threads[0]?.comment).toMatchObject({ isPinned: true, author: { isCreator: true, isVerified: true } });
    expect(page.threads.filter((thread) => thread.comment.isPinned)).toHaveLength(1);
    expect(page.header).toEqual({ totalCount: 21051, newest: { selected: true, token: expect.stringMatching(/^Eg0SC3hhUUpib3pZX0lz/) } });
    expect(page.continuation).toBe('vrs-authored:xaQJbozY_Is:newest:page-2');
  });

  it("reads a creator's heart and an artist's badge", () => {
    const page = pageOf(newestId);
    payloadOf(page, 'engagementToolbarStateEntityPayload', viewOf(page, 2).toolbarStateKey).heartState = 'TOOLBAR_HEART_STATE_HEARTED';
    Object.assign(entityOf(page, 3).author, { isVerified: false, isArtist: true });
    const threads = read(page).threads;
    expect(threads.map((thread) => thread.comment.isHearted)).toEqual([false, false, true, ...Array(7).fill(false)]);
    expect(threads[3]?.comment.author.isVerified).toBe(true);
  });

  it('reads emoji, non-ASCII text and runs that style, link and picture parts of it', () => {
    const page = pageOf(newestId);
    const text = 'Ça marche 😀 :party: 日本語 https://example.org ok';
    const image = { sources: [{ url: 'https://yt3.ggpht.com/emoji', width: 24, height: 24 }] };
    Object.assign(entityOf(page, 1).properties.content, {
      content: text,
      styleRuns: [{ startIndex: 21, length: 3, weightLabel: 'FONT_WEIGHT_MEDIUM' }, { italic: true }],
      commandRuns: [{ startIndex: 25, length: 19, onTap: { innertubeCommand: { urlEndpoint: { url: 'https://example.org' } } } }],
      attachmentRuns: [
        { startIndex: 10, length: 2, element: { type: { imageType: { image } } } },
        { startIndex: 13, length: 7, element: { type: { imageType: { image } } } },
      ],
    });
    entityOf(page, 1).author.displayName = '@Zoë-日本';
    expect(read(page).threads[1]?.comment).toMatchObject({ text, author: { name: '@Zoë-日本' } });
  });

  it('reads an empty text and an empty name as "N/A"', () => {
    const page = pageOf(newestId);
    entityOf(page, 4).properties.content = { content: '' };
    entityOf(page, 4).author.displayName = '';
    expect(read(page).threads[4]?.comment).toMatchObject({ text: 'N/A', author: { name: 'N/A' } });
  });

  it('takes the first entity payload of a key', () => {
    const page = pageOf(newestId);
    const later = structuredClone(entityOf(page, 0));
    later.properties.content.content = 'a later payload of the same key';
    mutationsOf(page).push({ entityKey: later.key, payload: { commentEntityPayload: later } });
    expect(read(page).threads[0]?.comment.text).toMatch(/^The 12,022 Calendar/);
  });

  it('reads a thread without replies, and the last page, which has no continuation', () => {
    const page = pageOf(newestId);
    delete threadsOf(page)[5]!.commentThreadRenderer.replies;
    const threads = read(page).threads;
    expect(threads[5]?.repliesToken).toBeUndefined();
    expect(threads[6]?.repliesToken).toEqual(expect.any(String));
    const last = read(pageOf('youtube/comments/xaQJbozY_Is.newest.json#1'));
    expect([last.header, last.continuation]).toEqual([undefined, undefined]);
    expect(last.threads).toHaveLength(10);
  });

  it('reads a reply page: the view models of the replies and the "Show more replies" button', async () => {
    const source = pageOf(newestId);
    const more = { buttonRenderer: { command: { continuationCommand: { token: 'replies-page-2' } } } };
    const page = {
      onResponseReceivedEndpoints: [
        {
          appendContinuationItemsAction: {
            continuationItems: [
              ...threadsOf(source).map((thread) => thread.commentThreadRenderer.commentViewModel),
              { continuationItemRenderer: { button: more } },
            ],
          },
        },
      ],
      frameworkUpdates: source.frameworkUpdates,
    };
    const replies = await fetchReplyPage(answering(page), 'token', 'parent-id');
    expect(replies.replies).toHaveLength(10);
    expect(replies.replies.every((reply) => reply.parentId === 'parent-id')).toBe(true);
    expect(replies.continuation).toBe('replies-page-2');
  });
});

describe("the comments section's token of a watch page", () => {
  const watchPage = (section: Json): Json => ({
    contents: {
      twoColumnWatchNextResults: {
        results: { results: { contents: [{ videoPrimaryInfoRenderer: {} }, { itemSectionRenderer: section }] } },
      },
    },
  });
  const continuation = (token: string) => ({
    continuationItemRenderer: { continuationEndpoint: { continuationCommand: { token, request: 'CONTINUATION_REQUEST_TYPE_WATCH_NEXT' } } },
  });

  it('takes targetId before sectionIdentifier, and the first continuation item of the section', async () => {
    const byTarget = watchPage({
      targetId: 'comments-section',
      sectionIdentifier: 'other',
      contents: [continuation('first'), continuation('second')],
    });
    expect(await commentsSectionToken(answering(byTarget), 'video')).toBe('first');
    const byIdentifier = watchPage({ sectionIdentifier: 'comment-item-section', contents: [continuation('only')] });
    expect(await commentsSectionToken(answering(byIdentifier), 'video')).toBe('only');
  });
});
