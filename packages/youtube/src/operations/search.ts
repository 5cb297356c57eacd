import { YTNodes } from 'youtubei.js';
import { continuationContents, nextToken } from '../normalize/continuations';
import { parseCount } from '../normalize/numbers';
import { normalizeThumbnails } from '../normalize/thumbnails';
import { absoluteUrl, channelUrl } from '../normalize/urls';
import type { SearchResults, SearchVideo } from '../shapes/search';
import type { Upstream } from '../transport/upstream';

/** The search filters NewPipe sends (type=video, and no filter at all), in YouTube's own (relevance) order. */
export const searchFilters = { videos: 'EgIQAfABAQ%3D%3D', all: '8AEB' } as const;
export type SearchFilter = keyof typeof searchFilters;

export const searchSorts = ['relevance', 'upload_date', 'view_count'] as const;
export type SearchSort = (typeof searchSorts)[number];

/**
 * The `params` of a search in another order: the search filter protobuf (`misc.SearchFilter`) as
 * youtubei.js 18.1 encodes it, field 1 = the order, field 2 = the filters (youtubei.js always
 * writes them; `type` 1 = video). `view_count` is youtubei.js's `{prioritize: 'popularity', type:
 * 'video'}` (3 = POPULARITY, the old VIEW_COUNT); `upload_date` writes 2, the old UPLOAD_DATE,
 * which 18.1's enum no longer lists (YouTube dropped that sort from its filter menu in 2026).
 */
export const sortedSearchParams: Record<Exclude<SearchSort, 'relevance'>, Record<SearchFilter, string>> = {
  upload_date: { videos: 'CAISAhAB', all: 'CAISAA%3D%3D' },
  view_count: { videos: 'CAMSAhAB', all: 'CAMSAA%3D%3D' },
};

/** The `params` a first search page is asked with. */
export function searchParams(filter: SearchFilter = 'videos', sort: SearchSort = 'relevance'): string {
  return sort === 'relevance' ? searchFilters[filter] : sortedSearchParams[sort][filter];
}

export interface SearchOptions {
  continuation?: string;
  /** `videos` (default) asks YouTube for videos only; `all` keeps its mixed results, of which the videos are returned. */
  filter?: SearchFilter;
  /** `relevance` (default, YouTube's order), `upload_date` (newest first) or `view_count`. A continuation keeps the order of its first page. */
  sort?: SearchSort;
}

type VideoNode = InstanceType<typeof YTNodes.Video>;

export function normalizeSearchVideo(video: VideoNode): SearchVideo {
  const channelId = video.author?.id ?? '';
  const viewText = video.view_count?.toString();
  return {
    id: video.video_id,
    title: video.title.toString(),
    channel: { id: channelId, name: video.author?.name ?? '', url: absoluteUrl(video.author?.url) ?? channelUrl(channelId) },
    viewCount: parseCount(viewText),
    publishedTimeText: video.published?.toString() ?? '',
    durationSeconds: video.duration?.seconds || null,
    thumbnails: normalizeThumbnails(video.thumbnails),
  };
}

export async function search(upstream: Upstream, query: string, options: SearchOptions = {}): Promise<SearchResults> {
  const body = options.continuation
    ? { continuation: options.continuation }
    : { query, params: searchParams(options.filter, options.sort) };
  const page = await upstream.parsed('/search', body);
  const videos = [
    ...(page.contents_memo?.getType(YTNodes.Video) ?? []),
    ...(page.on_response_received_commands_memo?.getType(YTNodes.Video) ?? []),
  ];
  const continuation = nextToken([
    ...(page.contents_memo?.getType(YTNodes.ContinuationItem) ?? []),
    ...continuationContents(page).filter((node) => node.is(YTNodes.ContinuationItem)),
  ]);
  const estimated = page.estimated_results;
  return {
    query,
    videos: videos.map(normalizeSearchVideo),
    ...(typeof estimated === 'number' ? { estimatedResults: estimated } : {}),
    ...(continuation ? { continuation } : {}),
    warnings: [],
  };
}
