import type { Thumbnail } from '../shapes/common';

interface AnyThumbnail {
  url?: string;
  width?: number;
  height?: number;
}

/** youtubei.js thumbnails (or raw ones) → contract thumbnails; URLs made absolute. */
export function normalizeThumbnails(thumbnails: AnyThumbnail[] | undefined | null): Thumbnail[] {
  return (thumbnails ?? [])
    .filter((thumbnail): thumbnail is AnyThumbnail & { url: string } => typeof thumbnail?.url === 'string')
    .map((thumbnail) => ({
      url: thumbnail.url.startsWith('//') ? `https:${thumbnail.url}` : thumbnail.url,
      width: Math.trunc(thumbnail.width ?? 0),
      height: Math.trunc(thumbnail.height ?? 0),
    }));
}
