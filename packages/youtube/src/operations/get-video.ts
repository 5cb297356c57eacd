import { YT, YTNodes } from 'youtubei.js';
import { captionCatalog } from '../captions/caption-tracks';
import { parseCount, toInt } from '../normalize/numbers';
import { normalizeThumbnails } from '../normalize/thumbnails';
import { absoluteUrl, channelUrl } from '../normalize/urls';
import type { VideoRecord } from '../shapes/video';
import type { Upstream } from '../transport/upstream';
import { fetchPlayer } from './fetch-player';

// The WEB player, masked as NewPipe masks it, is where publishDate and likeCount live.
const microformatPath = '/player?$fields=microformat,videoDetails.thumbnail.thumbnails,videoDetails.videoId';

async function optional<T>(what: string, warnings: string[], load: () => Promise<T>): Promise<T | undefined> {
  try {
    return await load();
  } catch (error) {
    warnings.push(`${what} unavailable: ${(error as Error).message}`);
    return undefined;
  }
}

function hashtagsOf(...texts: string[]): string[] {
  const found = texts.flatMap((text) => text.match(/#[\p{L}\p{N}_]+/gu) ?? []);
  return [...new Set(found)];
}

function commentCountOf(next: Record<string, unknown> | undefined, info: YT.VideoInfo): number | null {
  if (!next) return null;
  const panels = info.page[1]?.engagement_panels ?? [];
  const comments = panels.find((panel) => panel.panel_identifier === 'engagement-panel-comments-section');
  const header = comments?.header?.as(YTNodes.EngagementPanelTitleHeader);
  return parseCount(header?.contextual_info?.toString());
}

/**
 * Metadata from the player (required) plus microformat and /next (optional: warnings if missing),
 * asked at once, so a video costs one round trip (ADR 0045); a refusal is thrown once all are done.
 */
export async function getVideo(upstream: Upstream, videoId: string): Promise<VideoRecord> {
  const warnings: string[] = [];
  const asked = fetchPlayer(upstream, videoId);
  const [web, next] = await Promise.all([
    optional('publish date and like count (WEB player)', warnings, () =>
      upstream.raw(microformatPath, { videoId, contentCheckOk: true, racyCheckOk: true }, { optional: true }),
    ),
    optional('comment count (/next)', warnings, () =>
      upstream.raw('/next', { videoId, contentCheckOk: true, racyCheckOk: true }, { optional: true }),
    ),
    // Settled before the player's refusal is thrown, so no read of this call outlives it.
    asked.catch(() => undefined),
  ]);
  const player = await asked;
  const merged = { ...player, microformat: web?.microformat ?? player.microformat };
  const info = new YT.VideoInfo(
    [{ data: merged } as never, next ? ({ data: next } as never) : undefined].filter(Boolean) as never,
    {} as never,
    '',
  );
  const basic = info.basic_info;
  const microformat = info.page[0].microformat?.as(YTNodes.PlayerMicroformat);
  const captions = captionCatalog(info.captions);
  const description = basic.short_description ?? '';
  const channelId = basic.channel_id ?? basic.channel?.id ?? '';
  const likeCount =
    toInt(basic.like_count) ??
    parseCount((web?.microformat as { playerMicroformatRenderer?: { likeCount?: string } })?.playerMicroformatRenderer?.likeCount);
  const publishDate = microformat?.publish_date ?? null;
  if (!publishDate && web) warnings.push('publish date not reported by YouTube');
  const commentCount = commentCountOf(next, info);
  if (next && commentCount === null) warnings.push('comment count not reported (comments may be turned off)');

  return {
    id: basic.id ?? videoId,
    title: basic.title ?? '',
    description,
    channel: {
      id: channelId,
      name: basic.author ?? basic.channel?.name ?? '',
      url: absoluteUrl(basic.channel?.url) ?? channelUrl(channelId),
    },
    thumbnails: normalizeThumbnails(basic.thumbnail),
    durationSeconds: basic.duration ?? 0,
    publishDate,
    viewCount: toInt(basic.view_count),
    likeCount,
    commentCount,
    keywords: basic.keywords ?? [],
    hashtags: hashtagsOf(description, info.primary_info?.super_title_link?.toString() ?? ''),
    isLive: Boolean(basic.is_live),
    isUpcoming: Boolean(basic.is_upcoming),
    hasCaptions: captions.tracks.length > 0,
    captionTracks: captions.tracks,
    partial: warnings.length > 0,
    warnings,
    internal: { captionBaseUrls: captions.baseUrls, translationLanguages: captions.translationLanguages },
  };
}
