import { type CommentFields, commentOf } from '../normalize/comment';
import { parseCount } from '../normalize/numbers';
import type { Comment } from '../shapes/comments';
import type { CommentThreadPage, CommentsHeaderFacts, RawPage, ReplyPage } from './comments-pages';

/*
 * Comment pages read straight from YouTube's JSON, without youtubei.js's node tree (ADR 0054): it
 * builds a class instance for every node of a 190 KB page (buttons, endpoints, thumbnails,
 * commands), of which we keep a dozen strings per comment. Each reading below follows what
 * youtubei.js 18 does for the fields we keep (the youtubei.js code is named beside it), and any shape
 * it does not expect throws `UnknownShape`: the caller then parses the page with youtubei.js, never
 * answers from a guess.
 */

type Json = Record<string, unknown>;

class UnknownShape extends Error {}

const unknownShape = (what: string): never => {
  throw new UnknownShape(what);
};

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function objectOf(value: unknown, what: string): Json {
  return isObject(value) ? value : unknownShape(what);
}

function optionalString(value: unknown, what: string): string | undefined {
  return value === undefined || typeof value === 'string' ? value : unknownShape(what);
}

function arrayOf(value: unknown, what: string): unknown[] {
  return Array.isArray(value) ? value : unknownShape(what);
}

/** `a?.b?.c` over JSON. */
function at(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) current = isObject(current) ? current[key] : undefined;
  return current;
}

/** A renderer as `{ commentThreadRenderer: {…} }`; youtubei.js types it by its first key, we want one. */
function rendererOf(item: unknown): { name: string; body: Json } {
  const wrapper = objectOf(item, 'item');
  const names = Object.keys(wrapper);
  if (names.length !== 1) unknownShape(`item with keys ${names.join(', ')}`);
  return { name: names[0] as string, body: objectOf(wrapper[names[0] as string], names[0] as string) };
}

/**
 * What youtubei.js's NavigationEndpoint keeps of an endpoint: its payload (the first key ending in
 * "Endpoint" or "Command", after unwrapping `innertubeCommand`/`command`/`performOnceCommand`) and
 * the URL `toURL()` gives (none without a page type; YouTube's own host for known page types).
 */
function endpointOf(value: unknown): { payload: Json; url?: string } {
  if (value !== undefined && value !== null && !isObject(value)) unknownShape('endpoint');
  let data = value as Json | null | undefined;
  const inner = data && (data.innertubeCommand || data.command || data.performOnceCommand);
  if (inner) data = objectOf(inner, 'inner command');
  const name = data ? Object.keys(data).find((key) => key.endsWith('Endpoint') || key.endsWith('Command')) : undefined;
  const payload = name ? objectOf(data?.[name], name) : {};
  if (data?.serviceEndpoint) data = objectOf(data.serviceEndpoint, 'serviceEndpoint');
  const web = at(data, 'commandMetadata', 'webCommandMetadata');
  const path = optionalString(at(web, 'url') || undefined, 'endpoint url');
  const pageType = at(web, 'webPageType');
  if (!path || !pageType) return { payload };
  return { payload, url: pageType === 'WEB_PAGE_TYPE_UNKNOWN' ? path : `https://www.youtube.com${path}` };
}

const tokenIn = (payload: Json) => (typeof payload.token === 'string' ? payload.token : undefined);

/** `tokenOf` of a ContinuationItem: its button's endpoint when it has a Button, else its own. */
function continuationTokenOf(item: Json): string | undefined {
  if (item.button) {
    const button = rendererOf(item.button);
    if (button.name !== 'buttonRenderer') unknownShape(`continuation button ${button.name}`);
    return tokenIn(endpointOf(button.body.navigationEndpoint || button.body.serviceEndpoint || button.body.command).payload);
  }
  return tokenIn(endpointOf(item.continuationEndpoint).payload);
}

/** Text.fromAttributed(…).toString(): style, command and attachment runs split the text, never change it… */
function attributedText(content: Json): string {
  const text = content.content;
  if (typeof text !== 'string') return unknownShape('comment content');
  const attachments: [number, number][] = [];
  for (const kind of ['styleRuns', 'commandRuns', 'attachmentRuns']) {
    if (content[kind] === undefined) continue;
    for (const run of arrayOf(content[kind], kind)) {
      const { startIndex = 0, length = 0 } = objectOf(run, kind);
      if (!Number.isInteger(startIndex) || !Number.isInteger(length) || (startIndex as number) < 0 || (length as number) < 0)
        unknownShape(`${kind} range`);
      if (kind === 'attachmentRuns' && length) attachments.push([startIndex as number, (startIndex as number) + (length as number)]);
    }
  }
  // …unless an attachment lies inside an emoji one: its pieces would then each read as the emoji.
  attachments.sort((a, b) => a[0] - b[0]);
  if (attachments.some(([start], index) => index > 0 && start < (attachments[index - 1] as [number, number])[1]))
    unknownShape('overlapping attachment runs');
  return text || 'N/A';
}

/** The entity payloads youtubei.js applies to a CommentView, by key; the first of a key wins, as its `find` does. */
interface EntityPayloads {
  comments: Map<string, Json>;
  toolbarStates: Map<string, Json>;
}

function entityPayloadsOf(raw: RawPage): EntityPayloads {
  const payloads: EntityPayloads = { comments: new Map(), toolbarStates: new Map() };
  const mutations = arrayOf(at(raw, 'frameworkUpdates', 'entityBatchUpdate', 'mutations'), 'entity mutations');
  for (const mutation of mutations) {
    const payload = objectOf(mutation, 'mutation').payload;
    const comment = at(payload, 'commentEntityPayload');
    const toolbarState = at(payload, 'engagementToolbarStateEntityPayload');
    if (isObject(comment) && typeof comment.key === 'string' && !payloads.comments.has(comment.key))
      payloads.comments.set(comment.key, comment);
    if (isObject(toolbarState) && typeof toolbarState.key === 'string' && !payloads.toolbarStates.has(toolbarState.key))
      payloads.toolbarStates.set(toolbarState.key, toolbarState);
  }
  return payloads;
}

/** A commentViewModel with its entity payloads applied: CommentView's constructor, `applyMutations` and Author. */
function commentOfView(view: Json, payloads: EntityPayloads, parentId?: string): Comment {
  const id = view.commentId;
  const commentKey = view.commentKey;
  const toolbarStateKey = view.toolbarStateKey;
  if (typeof id !== 'string' || typeof commentKey !== 'string' || typeof toolbarStateKey !== 'string')
    return unknownShape('comment view keys');
  const entity = payloads.comments.get(commentKey) ?? unknownShape(`no entity payload for comment ${id}`);
  const properties = objectOf(entity.properties, 'comment properties');
  const author = objectOf(entity.author, 'comment author');
  const toolbar = objectOf(entity.toolbar, 'comment toolbar');
  const endpoint = endpointOf(at(entity, 'avatar', 'endpoint') || author.channelCommand);
  const channelId = optionalString(author.channelId, 'channel id');
  const browseId = optionalString(endpoint.payload.browseId, 'browse id');
  const fields: CommentFields = {
    id,
    text: attributedText(objectOf(properties.content, 'comment content')),
    authorId: channelId || browseId || channelId,
    authorName: optionalString(author.displayName, 'display name') || 'N/A',
    authorUrl: endpoint.url,
    isCreator: Boolean(author.isCreator),
    isVerified: Boolean(author.isVerified || author.isArtist),
    likeCountText: optionalString(toolbar.likeCountNotliked, 'like count') || '0',
    replyCountText: optionalString(toolbar.replyCount, 'reply count') || '0',
    publishedTime: optionalString(properties.publishedTime, 'published time'),
    isPinned: Boolean(view.pinnedText),
    isHearted: payloads.toolbarStates.get(toolbarStateKey)?.heartState === 'TOOLBAR_HEART_STATE_HEARTED',
  };
  return commentOf(fields, parentId);
}

/**
 * The items of the page's continuation commands, where `continuationContents` reads them. Only
 * `onResponseReceivedEndpoints`: youtubei.js applies entity payloads to no other group.
 */
function pageItems(raw: RawPage): unknown[] {
  if (raw.onResponseReceivedActions !== undefined || raw.onResponseReceivedCommands !== undefined)
    unknownShape('items outside onResponseReceivedEndpoints');
  const items: unknown[] = [];
  for (const group of arrayOf(raw.onResponseReceivedEndpoints, 'onResponseReceivedEndpoints')) {
    const command = objectOf(group, 'continuation command');
    if (command.navigateAction || command.showMiniplayerCommand) unknownShape('navigation command');
    const action = command.reloadContinuationItemsCommand || command.appendContinuationItemsAction;
    const list = at(action, 'continuationItems');
    if (list) items.push(...arrayOf(list, 'continuationItems'));
  }
  return items;
}

/**
 * Hands each item of the page to `read`, which throws on any it does not know, except continuation
 * items: the token of the last one is the page's continuation, as youtubei.js's `nextToken` takes it.
 */
function readItems(raw: RawPage, read: (name: string, body: Json) => void): string | undefined {
  let continuation: Json | undefined;
  for (const item of pageItems(raw)) {
    const { name, body } = rendererOf(item);
    if (name === 'continuationItemRenderer') continuation = body;
    else read(name, body);
  }
  return continuation && continuationTokenOf(continuation);
}

/** CommentsHeader's count (`Text.toString()`) and its sort menu's "Newest" entry. */
function headerFactsOf(header: Json): CommentsHeaderFacts {
  const count = objectOf(header.countText ?? {}, 'countText');
  const runs = count.runs === undefined ? undefined : arrayOf(count.runs, 'count runs');
  const countText = runs
    ? runs
        .map((run) => objectOf(run, 'count run'))
        .map((run) => (run.emoji ? unknownShape('emoji in count') : (optionalString(run.text, 'count run') ?? '')))
        .join('')
    : optionalString(count.simpleText, 'count text');
  if (header.customEmojis !== undefined) arrayOf(header.customEmojis, 'customEmojis');
  const facts: CommentsHeaderFacts = { totalCount: parseCount(countText || 'N/A') ?? undefined };
  if (!header.sortMenu) return facts;
  const menu = rendererOf(header.sortMenu);
  if (menu.name !== 'sortFilterSubMenuRenderer') unknownShape(`sort menu ${menu.name}`);
  if (!('subMenuItems' in menu.body)) return facts;
  const entries = arrayOf(menu.body.subMenuItems, 'subMenuItems').map((value) => {
    const entry = objectOf(value, 'sort menu entry');
    const { payload } = endpointOf(entry.serviceEndpoint || entry.navigationEndpoint);
    return { title: optionalString(entry.title, 'sort menu title') ?? '', selected: Boolean(entry.selected), token: tokenIn(payload) };
  });
  const newest = entries.find((entry) => /newest/i.test(entry.title));
  if (!newest) return facts;
  return { ...facts, newest: { selected: newest.selected, ...(newest.token ? { token: newest.token } : {}) } };
}

/** The token of a thread's replies: the first continuation item of `commentRepliesRenderer.contents`. */
function repliesTokenOf(thread: Json): string | undefined {
  if (!thread.replies) return undefined;
  const replies = rendererOf(thread.replies);
  if (replies.name !== 'commentRepliesRenderer') unknownShape(`replies ${replies.name}`);
  if (!replies.body.contents) return undefined;
  const first = arrayOf(replies.body.contents, 'replies contents')
    .map(rendererOf)
    .find((item) => item.name === 'continuationItemRenderer');
  return first && continuationTokenOf(first.body);
}

/** What a reading met that it does not know, for whoever counts the pages left to youtubei.js. */
export type OnUnknownShape = (reason: string) => void;

function unlessUnknown<T>(reader: () => T, onUnknown?: OnUnknownShape): T | undefined {
  try {
    return reader();
  } catch (error) {
    if (!(error instanceof UnknownShape)) throw error;
    onUnknown?.(error.message);
    return undefined;
  }
}

/**
 * A page of comment threads as `parseThreadPage` reads it with youtubei.js, or undefined when the
 * page holds anything this reading does not know (another renderer among the items, a thread
 * without its entity payload, …).
 */
export function threadPageFromJson(raw: RawPage, onUnknown?: OnUnknownShape): CommentThreadPage | undefined {
  return unlessUnknown(() => {
    const payloads = entityPayloadsOf(raw);
    const page: CommentThreadPage = { threads: [] };
    page.continuation = readItems(raw, (name, body) => {
      if (name === 'commentThreadRenderer') {
        const view = rendererOf(body.commentViewModel);
        if (view.name !== 'commentViewModel') unknownShape(`thread view ${view.name}`);
        page.threads.push({ comment: commentOfView(view.body, payloads), repliesToken: repliesTokenOf(body) });
      } else if (name === 'commentsHeaderRenderer') page.header ??= headerFactsOf(body);
      else unknownShape(`item ${name}`);
    });
    return page;
  }, onUnknown);
}

/** A page of replies as `fetchReplyPage` reads it with youtubei.js, or undefined as above. */
export function replyPageFromJson(raw: RawPage, parentId: string, onUnknown?: OnUnknownShape): ReplyPage | undefined {
  return unlessUnknown(() => {
    const payloads = entityPayloadsOf(raw);
    const page: ReplyPage = { replies: [] };
    page.continuation = readItems(raw, (name, body) => {
      if (name === 'commentViewModel') page.replies.push(commentOfView(body, payloads, parentId));
      else unknownShape(`item ${name}`);
    });
    return page;
  }, onUnknown);
}

/**
 * Where a video's /next answer (the watch page) puts its comments section: the item section of the
 * main results whose target is the comments section, and the token of its first continuation item
 * (`{ token: undefined }` when it has none). Undefined when the section is not there or has a shape
 * this reading does not know: youtubei.js, which looks through every node, then decides.
 */
export function commentsSectionFromJson(raw: RawPage, onUnknown?: OnUnknownShape): { token: string | undefined } | undefined {
  return unlessUnknown(() => {
    const contents = at(raw, 'contents', 'twoColumnWatchNextResults', 'results', 'results', 'contents');
    if (contents === undefined) return undefined;
    for (const item of arrayOf(contents, 'watch results')) {
      const section = at(item, 'itemSectionRenderer');
      if (!isObject(section)) continue;
      // As youtubei.js's ItemSection: targetId ("comments-section") before sectionIdentifier ("comment-item-section").
      const target = section.targetId || section.sectionIdentifier;
      if (target !== 'comments-section' && target !== 'comment-item-section') continue;
      const first = arrayOf(section.contents ?? [], 'comments section contents')
        .map(rendererOf)
        .find((entry) => entry.name === 'continuationItemRenderer');
      return { token: first && continuationTokenOf(first.body) };
    }
    return undefined;
  }, onUnknown);
}
