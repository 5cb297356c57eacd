import { describe, expect, it } from 'vitest';
import { Parser } from 'youtubei.js';
import '../transport/youtubei-log';
import { loadRecordings, type Recording } from '@vrs/testing/upstreams/youtube/recordings';
import { parseReplayDirs } from '@vrs/testing/upstreams/youtube/replay-dirs';
import { hasRecorded, projectDir, recordedDir, reportMissingShared } from '@vrs/testing/upstreams/youtube/fixture-dirs';
import type { ShapeFallback, Upstream } from '../transport/upstream';
import { commentsSectionFromJson, replyPageFromJson, threadPageFromJson } from './comment-pages-json';
import {
  commentsSectionTokenOfNodes,
  fetchReplyPage,
  parseThreadPage,
  parseThreadPageNodes,
  type RawPage,
  replyPageOfNodes,
} from './comments-pages';

reportMissingShared('comment pages from JSON');

// Raw InnerTube JSON, edited by hand below.
type Json = Record<string, any>;

const continuationAnswers = loadRecordings(parseReplayDirs()).recordings.filter(
  (recording) => recording.key.endpoint === 'next' && recording.key.keys.continuation && recording.status === 200,
);
const answersIn = (dir: string) => continuationAnswers.filter((recording) => recording.file.startsWith(dir));
const pageOf = (id: string): Json => JSON.parse((continuationAnswers.find((recording) => recording.id === id) as Recording).body);

/** Each reading gets its own copy, so neither can lean on what the other did to the page. */
const fromJson = (page: Json) => threadPageFromJson(structuredClone(page));
const fromNodes = (page: Json) => parseThreadPageNodes(structuredClone(page));
const repliesFromJson = (page: Json, parentId: string) => replyPageFromJson(structuredClone(page), parentId);
const repliesFromNodes = (page: Json, parentId: string) => replyPageOfNodes(Parser.parseResponse(structuredClone(page)), parentId);

/** Every thread and reply page among `answers` reads the same both ways, without falling back. */
function expectEveryPageTheSame(answers: Recording[]) {
  const read = { threadPages: 0, replyPages: 0 };
  for (const answer of answers) {
    const page = JSON.parse(answer.body) as Json;
    const nodes = fromNodes(page);
    const replies = repliesFromNodes(page, 'parent');
    if (nodes.threads.length > 0 || nodes.header) {
      expect(fromJson(page), answer.id).toEqual(nodes);
      read.threadPages += 1;
    } else if (replies.replies.length > 0) {
      expect(repliesFromJson(page, 'parent'), answer.id).toEqual(replies);
      read.replyPages += 1;
    }
  }
  return read;
}

describe('comment pages read from their JSON, against youtubei.js', () => {
  it("reads every comment page of the project's own fixtures as youtubei.js does", () => {
    // Newest and Top pages (with header, without continuation) and the monitoring fixtures' pages.
    expect(expectEveryPageTheSame(answersIn(projectDir))).toEqual({ threadPages: 5, replyPages: 0 });
  });

  it.skipIf(!hasRecorded)('reads every recorded comment page as youtubei.js does', () => {
    // Top pages of three videos (one of them twice, 2024 and 2026) and two reply pages.
    expect(expectEveryPageTheSame(answersIn(recordedDir))).toEqual({ threadPages: 4, replyPages: 2 });
  });
});

describe('hand-made comment pages', () => {
  const newestId = 'youtube/comments/xaQJbozY_Is.newest.json#0';
  const threadsOf = (page: Json): Json[] =>
    page.onResponseReceivedEndpoints
      .flatMap((group: Json) => (group.reloadContinuationItemsCommand ?? group.appendContinuationItemsAction).continuationItems)
      .filter((item: Json) => item.commentThreadRenderer);
  const viewOf = (page: Json, index: number): Json => threadsOf(page)[index].commentThreadRenderer.commentViewModel.commentViewModel;
  const mutationsOf = (page: Json): Json[] => page.frameworkUpdates.entityBatchUpdate.mutations;
  const payloadOf = (page: Json, kind: string, key: string): Json =>
    mutationsOf(page).find((mutation) => mutation.payload?.[kind]?.key === key)?.payload[kind];
  const entityOf = (page: Json, index: number) => payloadOf(page, 'commentEntityPayload', viewOf(page, index).commentKey);

  /** The same both ways, read without falling back. */
  function expectSame(page: Json) {
    const fast = fromJson(page);
    expect(fast).toBeDefined();
    expect(fast).toEqual(fromNodes(page));
    return fast as NonNullable<typeof fast>;
  }

  it('reads a pinned comment, a verified author, the creator and the header of a first page', () => {
    const page = expectSame(pageOf(newestId));
    expect(page.threads[0]?.comment).toMatchObject({ isPinned: true, author: { isCreator: true, isVerified: true } });
    expect(page.threads.filter((thread) => thread.comment.isPinned)).toHaveLength(1);
    expect(page.header).toEqual({ totalCount: 21051, newest: { selected: true, token: expect.stringMatching(/^Eg0SC3hhUUpib3pZX0lz/) } });
    expect(page.continuation).toBe('vrs-authored:xaQJbozY_Is:newest:page-2');
  });

  it("reads a creator's heart and an artist's badge as youtubei.js does", () => {
    const page = pageOf(newestId);
    payloadOf(page, 'engagementToolbarStateEntityPayload', viewOf(page, 2).toolbarStateKey).heartState = 'TOOLBAR_HEART_STATE_HEARTED';
    Object.assign(entityOf(page, 3).author, { isVerified: false, isArtist: true });
    const read = expectSame(page);
    expect(read.threads.map((thread) => thread.comment.isHearted)).toEqual([false, false, true, ...Array(7).fill(false)]);
    expect(read.threads[3]?.comment.author.isVerified).toBe(true);
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
    const read = expectSame(page);
    expect(read.threads[1]?.comment).toMatchObject({ text, author: { name: '@Zoë-日本' } });
  });

  it('reads an empty text and an empty name as youtubei.js does ("N/A")', () => {
    const page = pageOf(newestId);
    entityOf(page, 4).properties.content = { content: '' };
    entityOf(page, 4).author.displayName = '';
    expect(expectSame(page).threads[4]?.comment).toMatchObject({ text: 'N/A', author: { name: 'N/A' } });
  });

  it('takes the first entity payload of a key, as youtubei.js does', () => {
    const page = pageOf(newestId);
    const later = structuredClone(entityOf(page, 0));
    later.properties.content.content = 'a later payload of the same key';
    mutationsOf(page).push({ entityKey: later.key, payload: { commentEntityPayload: later } });
    expect(expectSame(page).threads[0]?.comment.text).toMatch(/^The 12,022 Calendar/);
  });

  it('reads a thread without replies, and the last page, which has no continuation', () => {
    const page = pageOf(newestId);
    delete threadsOf(page)[5].commentThreadRenderer.replies;
    const read = expectSame(page);
    expect(read.threads[5]?.repliesToken).toBeUndefined();
    expect(read.threads[6]?.repliesToken).toEqual(expect.any(String));
    const last = expectSame(pageOf('youtube/comments/xaQJbozY_Is.newest.json#1'));
    expect([last.header, last.continuation]).toEqual([undefined, undefined]);
    expect(last.threads).toHaveLength(10);
  });

  it('reads a reply page: the view models of the replies and the "Show more replies" button', () => {
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
    const read = repliesFromJson(page, 'parent-id');
    expect(read).toEqual(repliesFromNodes(page, 'parent-id'));
    expect(read?.replies).toHaveLength(10);
    expect(read?.replies.every((reply) => reply.parentId === 'parent-id')).toBe(true);
    expect(read?.continuation).toBe('replies-page-2');
  });
});

describe('pages the JSON reading does not know go to youtubei.js', () => {
  const page = () => pageOf('youtube/comments/xaQJbozY_Is.newest.json#0');
  const itemsOf = (raw: Json): Json[] => raw.onResponseReceivedEndpoints[1].reloadContinuationItemsCommand.continuationItems;

  /** Not read from the JSON, yet `parseThreadPage` answers as youtubei.js does, and says what it met. */
  function expectFallback(raw: Json, reason: RegExp) {
    expect(fromJson(raw)).toBeUndefined();
    const heard: string[] = [];
    expect(parseThreadPage(structuredClone(raw) as RawPage, (what) => heard.push(what))).toEqual(fromNodes(raw));
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatch(reason);
  }

  it('a thread whose entity payload is missing', () => {
    const raw = page();
    const key = itemsOf(raw)[3].commentThreadRenderer.commentViewModel.commentViewModel.commentKey;
    const mutations: Json[] = raw.frameworkUpdates.entityBatchUpdate.mutations;
    raw.frameworkUpdates.entityBatchUpdate.mutations = mutations.filter((mutation) => mutation.payload?.commentEntityPayload?.key !== key);
    expectFallback(raw, /^no entity payload for comment /);
  });

  it('an unknown renderer among the items', () => {
    const raw = page();
    itemsOf(raw).splice(2, 0, { commentsPromoRenderer: { title: { simpleText: 'New' } } });
    expectFallback(raw, /^item commentsPromoRenderer$/);
  });

  it('items in a group youtubei.js applies no entity payloads to', () => {
    const raw = page();
    raw.onResponseReceivedActions = raw.onResponseReceivedEndpoints.splice(1, 1);
    expectFallback(raw, /^items outside onResponseReceivedEndpoints/);
  });

  it('attachment runs inside one another', () => {
    const raw = page();
    const image = { sources: [{ url: 'https://yt3.ggpht.com/emoji', width: 24, height: 24 }] };
    const key = itemsOf(raw)[1].commentThreadRenderer.commentViewModel.commentViewModel.commentKey;
    const mutations: Json[] = raw.frameworkUpdates.entityBatchUpdate.mutations;
    const entity = mutations.find((mutation) => mutation.payload?.commentEntityPayload?.key === key)?.payload.commentEntityPayload;
    entity.properties.content = {
      content: 'a :ab: b',
      attachmentRuns: [
        { startIndex: 2, length: 4, element: { type: { imageType: { image } } } },
        { startIndex: 3, length: 1, element: { type: { imageType: { image } } } },
      ],
    };
    expectFallback(raw, /^overlapping attachment runs$/);
  });

  it('a reply page whose replies lack their entity payloads, through the upstream parse', async () => {
    const raw = page();
    const replyPage = {
      onResponseReceivedEndpoints: [
        { appendContinuationItemsAction: { continuationItems: [itemsOf(raw)[0].commentThreadRenderer.commentViewModel] } },
      ],
      frameworkUpdates: { entityBatchUpdate: { mutations: [] } },
    };
    expect(repliesFromJson(replyPage, 'parent-id')).toBeUndefined();
    const fallbacks: ShapeFallback[] = [];
    const upstream = {
      raw: async () => structuredClone(replyPage),
      parse: async (answer: RawPage) => Parser.parseResponse(answer),
      noteShapeFallback: (fallback: ShapeFallback) => fallbacks.push(fallback),
    } as unknown as Upstream;
    const read = await fetchReplyPage(upstream, 'token', 'parent-id');
    expect(read).toEqual(repliesFromNodes(replyPage, 'parent-id'));
    expect(read.replies).toHaveLength(1);
    expect(fallbacks).toEqual([{ page: 'comment-replies', reason: expect.stringMatching(/^no entity payload for comment /) }]);
  });
});

describe("the comments section's token of a watch page, read from its JSON", () => {
  const watchAnswers = loadRecordings(parseReplayDirs()).recordings.filter(
    (recording) => recording.key.endpoint === 'next' && recording.key.keys.videoId && recording.status === 200,
  );
  const tokenOfNodes = (page: Json) => commentsSectionTokenOfNodes(Parser.parseResponse(structuredClone(page)));

  it('finds the token youtubei.js finds in every recorded watch answer that has a comments section', () => {
    let found = 0;
    for (const answer of watchAnswers) {
      const page = JSON.parse(answer.body) as Json;
      const expected = tokenOfNodes(page);
      const section = commentsSectionFromJson(structuredClone(page));
      // Read from the JSON wherever youtubei.js finds a token; where the JSON reading answers, it agrees.
      if (expected) expect(section, answer.id).toBeDefined();
      if (section) {
        expect(section.token, answer.id).toBe(expected);
        found += 1;
      }
    }
    expect(watchAnswers.length).toBeGreaterThan(0);
    expect(found).toBeGreaterThan(0);
  });

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

  it('takes targetId before sectionIdentifier, and the first continuation item of the section', () => {
    const page = watchPage({
      targetId: 'comments-section',
      sectionIdentifier: 'other',
      contents: [continuation('first'), continuation('second')],
    });
    expect(commentsSectionFromJson(structuredClone(page))).toEqual({ token: 'first' });
    expect(tokenOfNodes(page)).toBe('first');
    const elsewhere = watchPage({ targetId: 'related', sectionIdentifier: 'comment-item-section', contents: [continuation('first')] });
    expect(commentsSectionFromJson(structuredClone(elsewhere))).toBeUndefined();
    expect(tokenOfNodes(elsewhere)).toBeUndefined();
  });

  it('answers a section without a continuation item as having no token, and leaves an unknown shape to youtubei.js', () => {
    const empty = watchPage({ sectionIdentifier: 'comment-item-section', contents: [] });
    expect(commentsSectionFromJson(structuredClone(empty))).toEqual({ token: undefined });
    expect(tokenOfNodes(empty)).toBeUndefined();
    const odd = watchPage({ targetId: 'comments-section', contents: [{ continuationItemRenderer: {}, extra: {} }] });
    const heard: string[] = [];
    expect(commentsSectionFromJson(structuredClone(odd), (reason) => heard.push(reason))).toBeUndefined();
    // A page without the section is not an unknown shape (comments off, say): nothing is heard.
    expect(commentsSectionFromJson({ contents: { singleColumnWatchNextResults: {} } }, (reason) => heard.push(reason))).toBeUndefined();
    expect(heard).toHaveLength(1);
  });
});
