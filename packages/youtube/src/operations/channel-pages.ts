import { YTNodes, type IParsedResponse } from 'youtubei.js';
import { notFoundError, YouTubeError } from '../errors';
import type { Upstream } from '../transport/upstream';

/** Tab params NewPipe sends for a channel's Videos and Playlists tabs. */
export const channelTabParams = { videos: 'EgZ2aWRlb3PyBgQKAjoA', playlists: 'EglwbGF5bGlzdHPyBgQKAkIA' } as const;

export function channelNotFound(id: string, platformReason: string): YouTubeError {
  return notFoundError('CHANNEL_NOT_FOUND', platformReason, `Channel ${id} not found: ${platformReason}`);
}

/**
 * A handle (`@name`) or channel URL goes through navigation/resolve_url; anything else is taken
 * as a channel id and left for the browse to accept or refuse (HTTP 400).
 */
export async function resolveChannelId(upstream: Upstream, idOrHandle: string): Promise<string> {
  const isUrl = /^https?:\/\//.test(idOrHandle);
  if (!isUrl && !idOrHandle.startsWith('@')) return idOrHandle;
  const url = isUrl ? idOrHandle : `https://www.youtube.com/${idOrHandle}`;
  const resolved = await upstream.parsed('/navigation/resolve_url', { url }).catch((error: unknown) => {
    if (error instanceof YouTubeError && (error.httpStatus === 400 || error.httpStatus === 404))
      throw channelNotFound(idOrHandle, 'YouTube could not resolve the handle');
    throw error;
  });
  const browseId = (resolved.endpoint?.payload as { browseId?: string } | undefined)?.browseId;
  if (!browseId?.startsWith('UC')) throw channelNotFound(idOrHandle, 'the handle does not lead to a channel');
  return browseId;
}

/** A channel browse; YouTube answers unknown ids with HTTP 400 and removed channels with an alert. */
export async function browseChannel(upstream: Upstream, channelId: string, body: Record<string, unknown>): Promise<IParsedResponse> {
  let page: IParsedResponse;
  try {
    page = await upstream.parsed('/browse', body);
  } catch (error) {
    if (error instanceof YouTubeError && error.httpStatus === 400) throw channelNotFound(channelId, 'YouTube rejected the channel id');
    throw error;
  }
  const alert = page.alerts?.find((node) => node.is(YTNodes.Alert) && node.alert_type === 'ERROR')?.as(YTNodes.Alert);
  if (alert) throw channelNotFound(channelId, alert.text.toString());
  return page;
}
