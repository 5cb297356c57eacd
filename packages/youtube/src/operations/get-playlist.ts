import { YT, YTNodes, type IParsedResponse } from 'youtubei.js';
import { notFoundError, YouTubeError } from '../errors';
import { continuationContents, nextToken } from '../normalize/continuations';
import { parseCount } from '../normalize/numbers';
import { normalizePlaylistVideo } from '../normalize/playlist-video';
import { normalizeThumbnails } from '../normalize/thumbnails';
import { absoluteUrl, playlistUrl, videoUrl } from '../normalize/urls';
import type { Playlist } from '../shapes/playlist';
import type { Upstream } from '../transport/upstream';
import { playlistFirstPageToken } from './playlist-token';

// The masked header request NewPipe makes in 2026, with the params it sends (kept URL-encoded).
const headerPath = '/browse?$fields=sidebar,header,microformat,alerts';
const playlistParams = 'wgYCCAA%3D';

function notFound(id: string, platformReason: string): YouTubeError {
  return notFoundError('PLAYLIST_NOT_FOUND', platformReason, `Playlist ${id} not found: ${platformReason}`);
}

function errorAlert(page: IParsedResponse): string | undefined {
  const alert = page.alerts?.find((node) => node.is(YTNodes.Alert) && node.alert_type === 'ERROR')?.as(YTNodes.Alert);
  return alert?.text.toString();
}

/** Header facts from whichever of header, sidebar and microformat the page has. */
function headerFacts(page: IParsedResponse) {
  const info = new YT.Playlist({} as never, page, true).info;
  const microformat = page.microformat?.is(YTNodes.MicroformatData) ? page.microformat : undefined;
  const videoCountText = info.total_items ?? '';
  return {
    title: info.title ?? microformat?.title ?? '',
    description: info.description ?? microformat?.description ?? '',
    thumbnails: normalizeThumbnails(info.thumbnails?.length ? info.thumbnails : microformat?.thumbnail),
    channel: { id: info.author?.id, name: info.author?.name, url: absoluteUrl(info.author?.url) },
    videoCountText,
    videoCount: parseCount(videoCountText) ?? 0,
    updatedTimeText: info.last_updated ?? '',
  };
}

function videosOf(page: IParsedResponse) {
  const nodes = continuationContents(page);
  const rows = nodes.length > 0 ? nodes : [...(page.contents_memo?.getType(YTNodes.PlaylistVideo) ?? [])];
  return {
    videos: rows.filter((node) => node.is(YTNodes.PlaylistVideo)).map((node) => normalizePlaylistVideo(node.as(YTNodes.PlaylistVideo))),
    continuation: nextToken(nodes.length > 0 ? nodes : [...(page.contents_memo?.getType(YTNodes.ContinuationItem) ?? [])]),
  };
}

async function fetchHeader(upstream: Upstream, id: string): Promise<IParsedResponse> {
  try {
    const header = await upstream.parsed(headerPath, { browseId: `VL${id}`, params: playlistParams });
    const alert = errorAlert(header);
    if (alert) throw notFound(id, alert);
    return header;
  } catch (error) {
    // InnerTube answers 400 to browse ids it cannot parse at all.
    if (error instanceof YouTubeError && error.httpStatus === 400) throw notFound(id, 'YouTube rejected the playlist id');
    throw error;
  }
}

/**
 * First page: the masked header, then the videos through the token the client builds (NewPipe's
 * 2026 flow). With `continuation`: that page only; its header facts come from the sidebar and
 * metadata YouTube repeats on continuation pages.
 */
export async function getPlaylist(upstream: Upstream, id: string, options: { continuation?: string } = {}): Promise<Playlist> {
  const header = options.continuation ? undefined : await fetchHeader(upstream, id);
  const page = await upstream.parsed('/browse', { continuation: options.continuation ?? playlistFirstPageToken(id) });
  const alert = errorAlert(page);
  if (alert) throw notFound(id, alert);
  const facts = headerFacts(header ?? page);
  const { videos, continuation } = videosOf(page);
  const warnings = facts.title ? [] : ['YouTube sent no playlist header on this page'];
  return {
    type: 'playlist',
    id,
    title: facts.title,
    thumbnails: facts.thumbnails,
    isPodcast: false,
    url: playlistUrl(id),
    description: facts.description,
    channel: facts.channel,
    videoCount: facts.videoCount,
    videoCountText: facts.videoCountText,
    updatedTimeText: facts.updatedTimeText,
    playUrl: videos[0] ? `${videoUrl(videos[0].id)}&list=${id}` : playlistUrl(id),
    videos,
    ...(continuation ? { continuation } : {}),
    estimatedTotal: facts.videoCount,
    warnings,
  };
}
