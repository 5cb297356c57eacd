import { YTNodes, type Helpers } from 'youtubei.js';
import type { PlaylistSummary } from '../shapes/playlist';
import { parseCount } from './numbers';
import { normalizeThumbnails } from './thumbnails';
import { absoluteUrl, playlistUrl } from './urls';

type LockupView = InstanceType<typeof YTNodes.LockupView>;
type GridPlaylist = InstanceType<typeof YTNodes.GridPlaylist>;

function summary(fields: Omit<PlaylistSummary, 'type' | 'url' | 'isPodcast' | 'videoCount'> & { isPodcast?: boolean }): PlaylistSummary {
  return {
    type: 'playlist',
    url: playlistUrl(fields.id),
    isPodcast: fields.isPodcast ?? false,
    videoCount: parseCount(fields.videoCountText) ?? 0,
    ...fields,
  };
}

/** 2026 layout: lockupViewModel, the count in the thumbnail badge ("12 videos"). */
function fromLockup(lockup: LockupView, channel: PlaylistSummary['channel']): PlaylistSummary {
  const image = lockup.content_image?.is(YTNodes.CollectionThumbnailView)
    ? lockup.content_image.primary_thumbnail
    : lockup.content_image?.as(YTNodes.ThumbnailView);
  const badges = (image?.overlays ?? [])
    .filter((overlay) => overlay.is(YTNodes.ThumbnailOverlayBadgeView))
    .flatMap((overlay) => overlay.as(YTNodes.ThumbnailOverlayBadgeView).badges);
  const countBadge = badges.find((badge) => /\d/.test(badge.text ?? ''));
  const playPath = (lockup.renderer_context?.command_context?.on_tap?.metadata as { url?: string } | undefined)?.url;
  return summary({
    id: lockup.content_id,
    title: lockup.metadata?.title.toString() ?? '',
    thumbnails: normalizeThumbnails(image?.image),
    isPodcast: lockup.content_type === 'PODCAST',
    channel,
    videoCountText: countBadge?.text ?? '',
    updatedTimeText: '',
    playUrl: absoluteUrl(playPath) ?? playlistUrl(lockup.content_id),
  });
}

/** 2024 layout: gridPlaylistRenderer, the count in thumbnailText ("5 videos"). */
function fromGrid(grid: GridPlaylist, channel: PlaylistSummary['channel']): PlaylistSummary {
  return summary({
    id: grid.id,
    title: grid.title.toString(),
    thumbnails: normalizeThumbnails(grid.thumbnails),
    channel,
    videoCountText: grid.video_count.toString(),
    updatedTimeText: '',
    playUrl: absoluteUrl(grid.endpoint.metadata.url) ?? playlistUrl(grid.id),
  });
}

export function playlistSummaries(nodes: Helpers.YTNode[], channel: PlaylistSummary['channel']): PlaylistSummary[] {
  return nodes.flatMap((node) => {
    if (node.is(YTNodes.LockupView) && ['PLAYLIST', 'PODCAST'].includes(node.content_type)) return [fromLockup(node, channel)];
    if (node.is(YTNodes.GridPlaylist)) return [fromGrid(node, channel)];
    return [];
  });
}
