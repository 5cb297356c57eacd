import type { ChannelPlaylistSort } from '@vrs/contracts';
import { YTNodes } from 'youtubei.js';
import { continuationContents, nextToken } from '../normalize/continuations';
import { playlistSummaries } from '../normalize/playlist-summary';
import { channelUrl } from '../normalize/urls';
import type { ChannelPlaylists } from '../shapes/playlist';
import type { Upstream } from '../transport/upstream';
import { browseChannel, channelNotFound, channelTabParams, resolveChannelId } from './channel-pages';

// The entries of the tab's sort menu, as YouTube titles them.
const sortTitles: Record<ChannelPlaylistSort, RegExp> = { newest: /date added|newest/i, 'last-video-added': /last video added/i };

/**
 * The Playlists tab (default sort "Date added (newest)"); the other sort through the browse
 * params of its sort-menu entry, as YouTube issued them; later pages through the continuation.
 */
export async function getChannelPlaylists(
  upstream: Upstream,
  idOrHandle: string,
  options: { sort?: ChannelPlaylistSort; continuation?: string } = {},
): Promise<ChannelPlaylists> {
  const sort = options.sort ?? 'newest';
  const channelId = await resolveChannelId(upstream, idOrHandle);
  const channel = { id: channelId, url: channelUrl(channelId) };

  if (options.continuation) {
    const page = await upstream.parsed('/browse', { continuation: options.continuation });
    const nodes = continuationContents(page);
    const continuation = nextToken(nodes);
    return { channelId, sort, playlists: playlistSummaries(nodes, channel), ...(continuation ? { continuation } : {}), warnings: [] };
  }

  let page = await browseChannel(upstream, channelId, { browseId: channelId, params: channelTabParams.playlists });
  const entries = page.contents_memo?.getType(YTNodes.SortFilterSubMenu)[0]?.sub_menu_items ?? [];
  const entry = entries.find((item) => sortTitles[sort].test(item.title ?? ''));
  if (!entry && sort !== 'newest') throw channelNotFound(channelId, `the playlists tab offers no "${sort}" sort`);
  if (entry && !entry.selected) {
    const { browseId, params } = entry.endpoint.payload as { browseId: string; params: string };
    page = await browseChannel(upstream, channelId, { browseId, params });
  }

  const nodes = [...(page.contents_memo?.getType(YTNodes.LockupView) ?? []), ...(page.contents_memo?.getType(YTNodes.GridPlaylist) ?? [])];
  const continuation = nextToken([...(page.contents_memo?.getType(YTNodes.ContinuationItem) ?? [])]);
  return { channelId, sort, playlists: playlistSummaries(nodes, channel), ...(continuation ? { continuation } : {}), warnings: [] };
}
