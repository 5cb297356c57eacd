import type { ImportSource } from '@vrs/contracts';
import type { ProviderClient } from '../provider-client';

export interface ResolvedVideos {
  videoIds: string[];
  warnings: string[];
}

/** Unique ids in first-seen order: a playlist may list a video twice, and it is imported once. */
function unique(ids: string[], limit: number): string[] {
  return [...new Set(ids)].slice(0, limit);
}

/**
 * The videos a source names, through the provider (saved versions are reused; a search always asks
 * YouTube). Only the first page of a playlist is read: `limit` is at most 50 and a page holds 100.
 */
export async function resolveVideos(provider: ProviderClient, source: ImportSource): Promise<ResolvedVideos> {
  switch (source.type) {
    case 'video':
      return { videoIds: [source.id], warnings: [] };
    case 'videos':
      return { videoIds: unique(source.ids, source.ids.length), warnings: [] };
    case 'playlist': {
      const { result } = await provider.playlists.get.query({ playlistId: source.id });
      return {
        videoIds: unique(
          result.videos.map((video) => video.id),
          source.limit,
        ),
        warnings: result.meta.warnings,
      };
    }
    case 'channel': {
      const { result } = await provider.channels.get.query({ channel: source.id });
      return {
        videoIds: unique(
          result.recentUploads.map((video) => video.id),
          source.limit,
        ),
        warnings: result.meta.warnings,
      };
    }
    case 'search': {
      const { result } = await provider.videos.search.query({ q: source.query });
      return {
        videoIds: unique(
          result.videos.map((video) => video.id),
          source.limit,
        ),
        warnings: result.meta.warnings,
      };
    }
  }
}
