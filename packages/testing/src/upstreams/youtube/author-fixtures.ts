/**
 * Authors the project's fixtures for pages nobody recorded, from the recorded renderers of the
 * same video, channel or playlist, reached through the tokens the recordings carry. Re-run after
 * changing it: `npx tsx packages/testing/src/upstreams/youtube/author-fixtures.ts` (needs ../shared).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { playlistFirstPageToken } from '@vrs/youtube/operations/playlist-token';
import { projectDir, recordedDir } from './fixture-dirs';

// Raw InnerTube JSON, walked by hand: typing every renderer would add nothing to a generator.
type Json = Record<string, any>;

function recorded(relative: string): { body: Json; date: string } {
  const wrapper = JSON.parse(readFileSync(path.join(recordedDir, 'newpipe-extractor', relative), 'utf8')) as Json;
  return {
    body: JSON.parse(wrapper.response.responseBody) as Json,
    date: new Date(wrapper.response.responseHeaders.date[0]).toISOString(),
  };
}

function write(relative: string, note: string, exchanges: Json[]): void {
  const file = path.join(projectDir, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ format: 'vrs-youtube-exchanges', note, exchanges }, null, 1)}\n`);
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}

const web = (url: string, body: Json, recordedAt: string, responseBody: Json, note?: string) => ({
  ...(note ? { note } : {}),
  request: { method: 'POST', url, clientName: 'WEB', body },
  response: { status: 200, recordedAt, body: responseBody },
});

/** The first object under `key` anywhere in `node`: the recording's shape, so its absence is a broken fixture. */
function first(node: unknown, key: string): Json {
  const [found] = find(node, key);
  if (found === undefined) throw new Error(`no ${key} in the recorded page`);
  return found;
}

function find(node: unknown, key: string, out: Json[] = []): Json[] {
  if (node && typeof node === 'object') {
    for (const [name, value] of Object.entries(node)) {
      if (name === key) out.push(value as Json);
      else find(value, key, out);
    }
  }
  return out;
}

/** Newest-first comment pages of xaQJbozY_Is, built from its recorded (2026) Top page. */
function newestComments(): void {
  const { body: top, date } = recorded('comments/xaQJbozY_Is.2_next_comments_top_page1.json');
  const [headerCommand, bodyCommand] = top.onResponseReceivedEndpoints as [Json, Json];
  const header = structuredClone(headerCommand) as Json;
  const menu = first(header, 'sortFilterSubMenuRenderer');
  const items = menu.subMenuItems as [Json, Json];
  const newestToken = first(items[1], 'continuationCommand').token as string;
  items[0].selected = false;
  items[1].selected = true;

  const bodyItems = bodyCommand.reloadContinuationItemsCommand.continuationItems as Json[];
  const threads = bodyItems.filter((item) => item.commentThreadRenderer);
  const recordedContinuation = bodyItems.find((item) => item.continuationItemRenderer) as Json;
  // Published times of the recorded comments, to order them newest first (the pinned one stays on top).
  const published = new Map<string, string>();
  for (const mutation of top.frameworkUpdates.entityBatchUpdate.mutations as Json[]) {
    const comment = mutation.payload?.commentEntityPayload;
    if (comment) published.set(mutation.entityKey, comment.properties.publishedTime);
  }
  const unitMs: Record<string, number> = {
    second: 1e3,
    minute: 6e4,
    hour: 3.6e6,
    day: 8.64e7,
    week: 6.048e8,
    month: 2.63e9,
    year: 3.156e10,
  };
  const age = (thread: Json) => {
    const text = published.get(thread.commentThreadRenderer.commentViewModel.commentViewModel.commentKey) ?? '';
    const match = /(\d+)\s+(second|minute|hour|day|week|month|year)/.exec(text);
    return match ? Number(match[1]) * unitMs[match[2]!]! : Number.POSITIVE_INFINITY;
  };
  const [pinned, ...rest] = threads;
  const ordered = [pinned, ...rest.sort((a, b) => age(a) - age(b))];
  const page2Token = 'vrs-authored:xaQJbozY_Is:newest:page-2';
  const continuation = structuredClone(recordedContinuation);
  first(continuation, 'continuationCommand').token = page2Token;

  const url = 'https://www.youtube.com/youtubei/v1/next?prettyPrint=false';
  const page1 = {
    ...top,
    onResponseReceivedEndpoints: [
      header,
      {
        ...bodyCommand,
        reloadContinuationItemsCommand: {
          ...bodyCommand.reloadContinuationItemsCommand,
          continuationItems: [...ordered.slice(0, 10), continuation],
        },
      },
    ],
  };
  const page2 = {
    responseContext: top.responseContext,
    onResponseReceivedEndpoints: [
      { appendContinuationItemsAction: { continuationItems: ordered.slice(10), targetId: 'comments-section' } },
    ],
    frameworkUpdates: top.frameworkUpdates,
  };
  write(
    'comments/xaQJbozY_Is.newest.json',
    'AUTHORED, not recorded: newest-first comment pages of xaQJbozY_Is. Page 1 answers the "Newest" token of the recorded 2026 Top page\'s sort menu; it holds the recorded header (Newest selected) and the first 10 of the 20 recorded threads, pinned first and then ordered by their published-time text; page 2 (reached through the token page 1 carries) holds the other 10 and ends the collection. Entity mutations are the recorded ones. Generated by packages/testing/src/upstreams/youtube/author-fixtures.ts.',
    [web(url, { continuation: newestToken }, date, page1), web(url, { continuation: page2Token }, date, page2)],
  );
}

/**
 * The second Top page of xaQJbozY_Is, reached through the continuation the recorded 2026 Top page
 * carries. Its threads are the recorded 2024 Top threads of the same video that the 2026 page does
 * not show, with the 2024 entity mutations; it ends the ranking (no further continuation).
 */
function topCommentsPage2(): void {
  const { body: top, date } = recorded('comments/xaQJbozY_Is.2_next_comments_top_page1.json');
  const { body: top2024 } = recorded('comments/xaQJbozY_Is.2024-11.2_next_comments_top_page1.json');
  const threadsOf = (page: Json) => (find(page, 'continuationItems').flat() as Json[]).filter((item) => item.commentThreadRenderer);
  const idOf = (thread: Json) => thread.commentThreadRenderer.commentViewModel.commentViewModel.commentId as string;
  const shown = new Set(threadsOf(top).map(idOf));
  const bodyItems = top.onResponseReceivedEndpoints[1].reloadContinuationItemsCommand.continuationItems as Json[];
  const token = first(
    bodyItems.find((item) => item.continuationItemRenderer),
    'continuationCommand',
  ).token as string;
  const page2 = {
    responseContext: top.responseContext,
    onResponseReceivedEndpoints: [
      {
        appendContinuationItemsAction: {
          continuationItems: threadsOf(top2024).filter((thread) => !shown.has(idOf(thread))),
          targetId: 'comments-section',
        },
      },
    ],
    frameworkUpdates: top2024.frameworkUpdates,
  };
  write(
    'comments/xaQJbozY_Is.top-page-2.json',
    'AUTHORED, not recorded: the second Top (default ranking) comments page of xaQJbozY_Is, answering the continuation token of the recorded 2026 Top page. It holds the recorded 2024 Top threads of the same video that the 2026 page does not show (with their recorded 2024 entity mutations) and no further continuation. Generated by packages/testing/src/upstreams/youtube/author-fixtures.ts.',
    [web('https://www.youtube.com/youtubei/v1/next?prettyPrint=false', { continuation: token }, date, page2)],
  );
}

/** The "Last video added" sort of EEVblog's playlists tab, reached through the recorded sort menu. */
function lastVideoAddedPlaylists(): void {
  const { body: tab, date } = recorded('channel-playlists/UC2DjFE7Xf11URZqWBigcVOQ.2_browse_playlists_tab.json');
  const page = structuredClone(tab);
  const items = first(page, 'sortFilterSubMenuRenderer').subMenuItems as [Json, Json];
  const params = items[1].navigationEndpoint.browseEndpoint.params as string;
  items[0].selected = false;
  items[1].selected = true;
  const grid = first(page, 'gridRenderer');
  grid.items = (grid.items as Json[]).filter((item) => !item.continuationItemRenderer);
  write(
    'channel-playlists/UC2DjFE7Xf11URZqWBigcVOQ.last-video-added.json',
    'AUTHORED, not recorded: the "Last video added" sort of the EEVblog playlists tab, answering the params of that entry in the recorded 2026 sort menu. It is the recorded "Date added (newest)" page with the other entry selected and its continuation removed: the items and their order are the recorded ones (nobody recorded the real order). Generated by packages/testing/src/upstreams/youtube/author-fixtures.ts.',
    [web('https://www.youtube.com/youtubei/v1/browse?prettyPrint=false', { browseId: 'UC2DjFE7Xf11URZqWBigcVOQ', params }, date, page)],
  );
}

/**
 * EEVblog's Videos tab (what getChannel asks for): nobody recorded a Videos tab of any channel, so
 * only the recorded header, metadata and microformat of the channel are real here; the grid is
 * left empty rather than filled with invented uploads.
 */
function eevblogVideosTab(): void {
  const { body: tab, date } = recorded('channel-playlists/UC2DjFE7Xf11URZqWBigcVOQ.2_browse_playlists_tab.json');
  const page = structuredClone(tab);
  for (const { tabRenderer } of page.contents.twoColumnBrowseResultsRenderer.tabs as Json[]) {
    if (!tabRenderer) continue;
    const params = tabRenderer.endpoint?.browseEndpoint?.params;
    delete tabRenderer.content;
    tabRenderer.selected = params === 'EgZ2aWRlb3PyBgQKAjoA';
    if (tabRenderer.selected) tabRenderer.content = { richGridRenderer: { contents: [] } };
  }
  write(
    'channel/UC2DjFE7Xf11URZqWBigcVOQ.videos-tab.json',
    'AUTHORED, not recorded: the Videos tab of EEVblog (params EgZ2aWRlb3PyBgQKAjoA, as NewPipe asks for channel info). Header, metadata, microformat and tab list are those of the recorded 2026 Playlists tab of the same channel; the upload grid is EMPTY because no Videos tab of any channel has been recorded and uploads are not invented. Generated by packages/testing/src/upstreams/youtube/author-fixtures.ts.',
    [
      web(
        'https://www.youtube.com/youtubei/v1/browse?prettyPrint=false',
        { browseId: 'UC2DjFE7Xf11URZqWBigcVOQ', params: 'EgZ2aWRlb3PyBgQKAjoA' },
        date,
        page,
      ),
    ],
  );
}

/**
 * The 2024 playlists as the 2026 flow asks for them: the first videos page through the token the
 * client builds. The items (and the recorded continuation among them) are those of the recorded
 * 2024 full page, delivered the way the recorded 2026 first page delivers them.
 */
function playlist2024FirstPages(): void {
  const exchanges: Json[] = [];
  for (const [id, file] of [
    ['PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr', 'playlist/PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr.2024-11.1_browse_full.json'],
    ['PLXJg25X-OulsVsnvZ7RVtSDW-id9_RzAO', 'playlist/PLXJg25X-OulsVsnvZ7RVtSDW-id9_RzAO.2024-11.browse_full_small.json'],
  ] as const) {
    const { body: full, date } = recorded(file);
    const list = first(full, 'playlistVideoListRenderer');
    const page = {
      responseContext: full.responseContext,
      contents: { twoColumnBrowseResultsRenderer: { tabs: [{ tabRenderer: { selected: true } }] } },
      metadata: full.metadata,
      microformat: full.microformat,
      onResponseReceivedActions: [
        { reloadContinuationItemsCommand: { targetId: id, continuationItems: list.contents, slot: 'RELOAD_CONTINUATION_SLOT_BODY' } },
      ],
      sidebar: full.sidebar,
    };
    exchanges.push(
      web(
        'https://www.youtube.com/youtubei/v1/browse?prettyPrint=false',
        { continuation: playlistFirstPageToken(id) },
        date,
        page,
        `first videos page of ${id} (2024 items)`,
      ),
    );
  }
  write(
    'playlist/2024-first-pages.json',
    'AUTHORED, not recorded: the first videos page of the two playlists recorded only in 2024 (full browse), answering the continuation token the client builds as NewPipe does in 2026. Items, metadata, microformat and sidebar are those of the recorded 2024 full page, in the envelope of the recorded 2026 first page (reloadContinuationItemsCommand). For PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr the 2026 recording answers the same token and wins by date: select this one to test the 2024 layout. Generated by packages/testing/src/upstreams/youtube/author-fixtures.ts.',
    exchanges,
  );
}

newestComments();
topCommentsPage2();
lastVideoAddedPlaylists();
eevblogVideosTab();
playlist2024FirstPages();
