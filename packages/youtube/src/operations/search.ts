import { YTNodes, type Helpers, type IParsedResponse } from 'youtubei.js';
import { continuationContents, nextToken } from '../normalize/continuations';
import { parseCount } from '../normalize/numbers';
import { normalizeThumbnails } from '../normalize/thumbnails';
import { absoluteUrl, channelUrl } from '../normalize/urls';
import type { SearchResults, SearchVideo } from '../shapes/search';
import type { Upstream } from '../transport/upstream';

/** The search filters NewPipe sends (type=video, and no filter at all). */
export const searchFilters = { videos: 'EgIQAfABAQ%3D%3D', all: '8AEB' } as const;
export type SearchFilter = keyof typeof searchFilters;

export interface SearchOptions {
  continuation?: string;
  /** `videos` (default) asks YouTube for videos only; `all` keeps its mixed results, of which the videos are returned. */
  filter?: SearchFilter;
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

function videoNodes(page: IParsedResponse): { nodes: Helpers.YTNode[]; videos: VideoNode[] } {
  const continued = continuationContents(page);
  const memo = [...(page.contents_memo?.getType(YTNodes.Video) ?? []), ...(page.on_response_received_commands_memo?.getType(YTNodes.Video) ?? [])];
  const continuations = [
    ...(page.contents_memo?.getType(YTNodes.ContinuationItem) ?? []),
    ...continued.filter((node) => node.is(YTNodes.ContinuationItem)),
  ];
  return { nodes: continuations, videos: memo };
}

export async function search(upstream: Upstream, query: string, options: SearchOptions = {}): Promise<SearchResults> {
  const body = options.continuation ? { continuation: options.continuation } : { query, params: searchFilters[options.filter ?? 'videos'] };
  const page = await upstream.parsed('/search', body);
  const { nodes, videos } = videoNodes(page);
  const continuation = nextToken(nodes);
  const estimated = page.estimated_results;
  return {
    query,
    videos: videos.map(normalizeSearchVideo),
    ...(typeof estimated === 'number' ? { estimatedResults: estimated } : {}),
    ...(continuation ? { continuation } : {}),
    warnings: [],
  };
}
