import type { ImportSource } from '@vrs/contracts';
import type { ProviderClient } from '../provider-client';

/** Unique ids in first-seen order: a playlist may list a video twice, and it is imported once. */
function firstUnique(videos: { id: string }[], limit: number, warnings: string[]) {
  return { videoIds: [...new Set(videos.map((video) => video.id))].slice(0, limit), warnings };
}

/**
 * The videos a source names, through the provider (saved versions are reused; a search always asks
 * YouTube). Only the first page of a playlist is read: `limit` is at most 50 and a page holds 100.
 */
export async function resolveVideos(provider: ProviderClient, source: ImportSource): Promise<ReturnType<typeof firstUnique>> {
  switch (source.type) {
    case 'video':
      return { videoIds: [source.id], warnings: [] };
    case 'videos':
      return { videoIds: [...new Set(source.ids)], warnings: [] };
    case 'playlist': {
      const { result } = await provider.playlists.get.query({ playlistId: source.id });
      return firstUnique(result.videos, source.limit, result.meta.warnings);
    }
    case 'channel': {
      const { result } = await provider.channels.get.query({ channel: source.id });
      return firstUnique(result.recentUploads, source.limit, result.meta.warnings);
    }
    case 'search': {
      const { result } = await provider.videos.search.query({ q: source.query });
      return firstUnique(result.videos, source.limit, result.meta.warnings);
    }
  }
}
