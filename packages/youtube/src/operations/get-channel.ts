import { YTNodes, type IParsedResponse } from 'youtubei.js';
import { parseCount } from '../normalize/numbers';
import { normalizeThumbnails } from '../normalize/thumbnails';
import { absoluteUrl, channelUrl } from '../normalize/urls';
import type { Channel } from '../shapes/channel';
import type { Upstream } from '../transport/upstream';
import { browseChannel, channelTabParams, resolveChannelId } from './channel-pages';
import { normalizeSearchVideo } from './search';

/** The header's metadata rows read "@handle", then "988k subscribers • 2.1k videos". */
function headerFacts(page: IParsedResponse) {
  const header = page.header?.item();
  if (header?.is(YTNodes.C4TabbedHeader)) {
    return {
      handle: header.channel_handle?.toString() || null,
      subscribers: header.subscribers?.toString(),
      videos: header.videos_count?.toString(),
    };
  }
  const rows = header?.is(YTNodes.PageHeader) ? (header.content?.metadata?.metadata_rows ?? []) : [];
  const parts = rows.flatMap((row) => row.metadata_parts ?? []).map((part) => part.text?.toString() ?? '');
  return {
    handle: parts.find((part) => part.startsWith('@')) ?? null,
    subscribers: parts.find((part) => /subscriber/i.test(part)),
    videos: parts.find((part) => /video/i.test(part)),
  };
}

/** Channel facts from its Videos tab (the request NewPipe makes), uploads newest first. */
export async function getChannel(upstream: Upstream, idOrHandle: string): Promise<Channel> {
  const channelId = await resolveChannelId(upstream, idOrHandle);
  const page = await browseChannel(upstream, channelId, { browseId: channelId, params: channelTabParams.videos });
  const metadata = page.metadata?.item().as(YTNodes.ChannelMetadata);
  const facts = headerFacts(page);
  const uploads = [...(page.contents_memo?.getType(YTNodes.Video) ?? [])].map(normalizeSearchVideo);
  const warnings: string[] = [];
  if (uploads.length === 0) warnings.push('The Videos tab listed no uploads.');
  if (facts.subscribers === undefined) warnings.push('The subscriber count is hidden or was not sent.');
  return {
    id: metadata?.external_id ?? channelId,
    title: metadata?.title ?? '',
    handle: facts.handle,
    description: metadata?.description ?? '',
    url: absoluteUrl(metadata?.vanity_channel_url) ?? channelUrl(channelId),
    subscriberCount: parseCount(facts.subscribers),
    videoCount: parseCount(facts.videos),
    thumbnails: normalizeThumbnails(metadata?.avatar),
    recentUploads: uploads,
    warnings,
  };
}
