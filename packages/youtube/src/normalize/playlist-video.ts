import { YTNodes } from 'youtubei.js';
import type { PlaylistVideo } from '../shapes/playlist';
import { parseClockDuration, parseCount } from './numbers';
import { normalizeThumbnails } from './thumbnails';
import { absoluteUrl, channelUrl, videoUrl } from './urls';

type Node = InstanceType<typeof YTNodes.PlaylistVideo>;

/** Playlist rows carry no description and no caption flag: those stay empty / false. */
export function normalizePlaylistVideo(video: Node): PlaylistVideo {
  // videoInfo reads "266M views • 11 months ago": count, separator, age.
  const infoRuns = (video.video_info?.runs ?? []).map((run) => run.text.trim()).filter((text) => text && text !== '•');
  const viewCountText = infoRuns.find((text) => /view/i.test(text)) ?? '';
  const publishedTimeText = infoRuns.find((text) => /ago|streamed|premiered/i.test(text)) ?? '';
  const overlays = video.thumbnail_overlays ?? [];
  const isLive = overlays.some((overlay) => overlay.is(YTNodes.ThumbnailOverlayTimeStatus) && overlay.style === 'LIVE');
  const durationText = video.duration?.text ?? '';
  return {
    type: 'video',
    id: video.id,
    title: video.title.toString(),
    channel: {
      id: video.author.id ?? '',
      name: video.author.name ?? '',
      url: absoluteUrl(video.author.url) ?? channelUrl(video.author.id ?? ''),
    },
    thumbnails: normalizeThumbnails(video.thumbnails),
    isLive,
    url: videoUrl(video.id),
    description: '',
    durationSeconds: video.duration?.seconds ?? parseClockDuration(durationText) ?? 0,
    durationText,
    publishedTimeText,
    viewCount: parseCount(viewCountText) ?? 0,
    viewCountText,
    hasCaptions: false,
  };
}
