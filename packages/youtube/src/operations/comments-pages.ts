import { Parser, YTNodes } from 'youtubei.js';
import { normalizeComment } from '../normalize/comment';
import { continuationContents, nextToken, tokenOf } from '../normalize/continuations';
import { parseCount } from '../normalize/numbers';
import type { Comment } from '../shapes/comments';
import type { Upstream } from '../transport/upstream';
import { textOf } from '../transport/upstream-fetch';
import { fetchPlayer } from './fetch-player';

type CommentsHeader = InstanceType<typeof YTNodes.CommentsHeader>;

/** What callers use of a page's comments header. */
export interface CommentsHeaderFacts {
  /** The count it prints ("21,051 Comments"). */
  totalCount?: number;
  /** The sort menu's "Newest" entry: whether it is the order shown, and the token that switches to it. */
  newest?: { selected: boolean; token?: string };
}

export interface CommentThreadPage {
  header?: CommentsHeaderFacts;
  threads: { comment: Comment; repliesToken?: string }[];
  continuation?: string;
}

export interface ReplyPage {
  replies: Comment[];
  continuation?: string;
}

/**
 * The comments section's first token, from the video's /next; undefined when it shows no comments
 * section (comments turned off, live streams). A video that does not exist gets no section either,
 * so then the player decides: an unplayable video throws its typed error.
 */
export async function commentsSectionToken(upstream: Upstream, videoId: string): Promise<string | undefined> {
  const next = await upstream.parsed('/next', { videoId });
  const sections = next.contents_memo?.getType(YTNodes.ItemSection) ?? [];
  // youtubei.js keeps targetId ("comments-section") over sectionIdentifier ("comment-item-section").
  const section = sections.find((s) => s.target_id === 'comments-section' || s.target_id === 'comment-item-section');
  const token = tokenOf(section?.contents?.firstOfType(YTNodes.ContinuationItem));
  if (!token) await fetchPlayer(upstream, videoId);
  return token;
}

/** A page of /next as YouTube sent it, before youtubei.js parses it. */
export type RawPage = Record<string, unknown>;

export function parseThreadPage(raw: RawPage): CommentThreadPage {
  const nodes = continuationContents(Parser.parseResponse(raw));
  const header = nodes.find((node): node is CommentsHeader => node.is(YTNodes.CommentsHeader));
  const threads = nodes
    .filter((node) => node.is(YTNodes.CommentThread))
    .map((node) => node.as(YTNodes.CommentThread))
    .filter((thread) => thread.comment)
    .map((thread) => ({
      comment: normalizeComment(thread.comment as InstanceType<typeof YTNodes.CommentView>),
      // youtubei.js looks for this token in `subThreads`; YouTube puts it in `contents` (DESIGN.md).
      repliesToken: tokenOf(thread.comment_replies_data?.contents?.firstOfType(YTNodes.ContinuationItem)),
    }));
  return { header: header && headerFactsOf(header), threads, continuation: nextToken(nodes) };
}

function headerFactsOf(header: CommentsHeader): CommentsHeaderFacts {
  const totalCount = parseCount(header.count?.toString()) ?? undefined;
  const newest = header.sort_menu?.sub_menu_items?.find((item) => /newest/i.test(item.title ?? ''));
  if (!newest) return { totalCount };
  const token = (newest.endpoint.payload as { token?: unknown }).token;
  return { totalCount, newest: { selected: Boolean(newest.selected), ...(typeof token === 'string' && token ? { token } : {}) } };
}

export async function fetchThreadPage(upstream: Upstream, token: string): Promise<CommentThreadPage> {
  return parseThreadPage(await upstream.raw('/next', { continuation: token }));
}

/**
 * How deep a page's items sit: root → onResponseReceived… [ → { → append/reload action { →
 * continuationItems [ → the item {, where `continuationContents` and youtubei.js read them.
 */
const itemDepth = 6;
const ascii = (text: string) => Buffer.from(text, 'latin1');
const threadKey = ascii('commentThreadRenderer');
const continuationItemKey = ascii('continuationItemRenderer');
const entityPayloadsKey = ascii('frameworkUpdates');
const continuationCommandKey = ascii('"continuationCommand"');
// A continuation command's token, within that command's own object.
const continuationToken = /^"continuationCommand"\s*:\s*\{[^{}]*?"token"\s*:\s*"([^"\\]+)"/;

const isSpace = (byte: number | undefined) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/**
 * What a page shows before it is decoded and parsed (ADR 0045): how many threads it holds and the
 * token of its last continuation item, at the depth where `continuationContents` and `nextToken` read
 * them. One pass over the bytes up to the entity payloads: JSON's structure is ASCII, which UTF-8
 * never uses inside a multi-byte character, so nothing needs decoding. Only a guess: the parsed page
 * has the last word.
 */
export function peekThreadPage(bytes: Uint8Array): { threads: number; continuation?: string } {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let depth = 0;
  let threads = 0;
  let lastItem = -1;
  for (let at = 0; at < buffer.length; at++) {
    const byte = buffer[at];
    if (byte === 0x7b || byte === 0x5b) depth++;
    else if (byte === 0x7d || byte === 0x5d) depth--;
    else if (byte === 0x22) {
      const start = at + 1;
      for (at = start; at < buffer.length; at++) {
        const inner = buffer[at];
        if (inner === 0x5c) at++;
        else if (inner === 0x22) break;
      }
      if (depth !== itemDepth && depth !== 1) continue;
      let next = at + 1;
      while (isSpace(buffer[next])) next++;
      if (buffer[next] !== 0x3a) continue;
      const key = buffer.subarray(start, at);
      // The entity payloads, most of the answer, hold no items.
      if (depth === 1 && key.equals(entityPayloadsKey)) break;
      if (key.equals(threadKey)) threads++;
      else if (key.equals(continuationItemKey)) lastItem = next;
    }
  }
  const command = lastItem < 0 ? -1 : buffer.indexOf(continuationCommandKey, lastItem);
  if (command < 0) return { threads };
  const token = continuationToken.exec(buffer.toString('latin1', command, command + 4096))?.[1];
  return token ? { threads, continuation: token } : { threads };
}

/**
 * Reads thread pages one after another, asking for a page's continuation before it is parsed, so the
 * parse overlaps the next round trip (ADR 0041). `wantsNext(threads)`: whether the walk will follow a
 * page's continuation once it has taken that many threads. A page asked for early and not wanted
 * after all is dropped.
 */
export function createThreadPageReader(upstream: Upstream, wantsNext: (threads: number) => boolean) {
  let ahead: { token: string; bytes: Promise<Uint8Array> } | undefined;
  const fetchPage = (token: string) => upstream.rawBytes('/next', { continuation: token });
  return async (token: string): Promise<CommentThreadPage> => {
    const early = ahead?.token === token ? ahead.bytes : undefined;
    ahead = undefined;
    const bytes = await (early ?? fetchPage(token));
    const peek = peekThreadPage(bytes);
    if (peek.continuation && wantsNext(peek.threads)) {
      const next = fetchPage(peek.continuation);
      // Its failure is reported where the walk awaits it; a dropped one fails unheard.
      next.catch(() => undefined);
      ahead = { token: peek.continuation, bytes: next };
      // Let the request reach the socket before parsing: undici writes it on a reused connection only
      // after a turn of the I/O phase, which setImmediate alone does not wait for (ADR 0041).
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    return parseThreadPage(JSON.parse(textOf({ body: bytes })) as RawPage);
  };
}

/** Replies come back as CommentView items plus a "Show more replies" continuation. */
export async function fetchReplyPage(upstream: Upstream, token: string, parentId: string): Promise<ReplyPage> {
  const page = await upstream.parsed('/next', { continuation: token });
  const nodes = continuationContents(page);
  const replies = nodes
    .filter((node) => node.is(YTNodes.CommentView))
    .map((node) => normalizeComment(node.as(YTNodes.CommentView), parentId));
  return { replies, continuation: nextToken(nodes) };
}

/** Where a newest-first read starts: the first page in time order, and how many pages it took to get there. */
export interface NewestStart {
  /** The first (Top) page, whose header carries the total and the sort menu. */
  topPage: CommentThreadPage;
  /** The first newest-first page, or the Top page when the platform offers no newest-first order. */
  page: CommentThreadPage;
  /** False when the sort menu has no "Newest": `page` is then the top-ranked page. */
  platformSortsByTime: boolean;
  pagesFetched: number;
}

/**
 * The "Newest" entry of the sort menu YouTube sends with the first (Top) page, followed once; a
 * Top page that already has "Newest" selected is the newest page itself.
 */
export async function openNewestPage(
  upstream: Upstream,
  sectionToken: string,
  readNewest: (token: string) => Promise<CommentThreadPage> = (token) => fetchThreadPage(upstream, token),
): Promise<NewestStart> {
  const topPage = await fetchThreadPage(upstream, sectionToken);
  const newest = topPage.header?.newest;
  const platformSortsByTime = Boolean(newest?.selected || newest?.token);
  if (!platformSortsByTime || newest?.selected) return { topPage, page: topPage, platformSortsByTime, pagesFetched: 1 };
  return { topPage, page: await readNewest(newest?.token as string), platformSortsByTime, pagesFetched: 2 };
}

export const noNewestOrder =
  'YouTube offers no newest-first order for these comments: these are its top-ranked ones, sorted here by published time, so newer comments may be missing.';
export const sortedHere = "YouTube's newest-first pages were not in time order; they are sorted here by published time.";
