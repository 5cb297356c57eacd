import type { ChannelPlaylistSort } from '@vrs/contracts';
import { getChannel } from './operations/get-channel';
import { getChannelPlaylists } from './operations/get-channel-playlists';
import { getComments, type CommentsPageOptions } from './operations/get-comments';
import { getNewestComments, type NewestCommentsOptions } from './operations/get-newest-comments';
import { getPlaylist } from './operations/get-playlist';
import type { PlayerAttempt } from './operations/fetch-player';
import { getStoryboardSource, type StoryboardSource } from './operations/get-storyboard';
import { search, type SearchOptions } from './operations/search';
import { getTranscript, type TranscriptOptions } from './operations/get-transcript';
import { getVideo } from './operations/get-video';
import type { Channel } from './shapes/channel';
import type { CommentsPage, NewestComments } from './shapes/comments';
import type { ChannelPlaylists, Playlist } from './shapes/playlist';
import type { SearchResults } from './shapes/search';
import type { Transcript } from './shapes/transcript';
import type { VideoRecord } from './shapes/video';
import { createUpstream, type UpstreamOptions } from './transport/upstream';
import { defaultClientOptions } from './client-options';

/** The upstream's options, each one left out taking its value from `defaultClientOptions`. */
export type YouTubeClientOptions = Partial<UpstreamOptions>;

export interface YouTubeClient {
  getVideo(videoId: string): Promise<VideoRecord>;
  getTranscript(videoId: string, options?: TranscriptOptions): Promise<Transcript>;
  getComments(videoId: string, options?: CommentsPageOptions): Promise<CommentsPage>;
  getNewestComments(videoId: string, options: NewestCommentsOptions): Promise<NewestComments>;
  getPlaylist(playlistId: string, options?: { continuation?: string }): Promise<Playlist>;
  search(query: string, options?: SearchOptions): Promise<SearchResults>;
  getChannel(idOrHandle: string): Promise<Channel>;
  getChannelPlaylists(idOrHandle: string, options?: { sort?: ChannelPlaylistSort; continuation?: string }): Promise<ChannelPlaylists>;
  /** The storyboard spec of the video's player response; `onAttempt` hears each player client's turn. */
  getStoryboardSource(videoId: string, options?: { onAttempt?: (attempt: PlayerAttempt) => void }): Promise<StoryboardSource>;
  /** One storyboard sheet image (a URL built from a spec), refused when longer than `maxBytes`. */
  getStoryboardSheet(url: string, options: { maxBytes: number }): Promise<{ body: Uint8Array; contentType: string | null }>;
}

export { defaultClientOptions };

/**
 * One client per process: its circuit breaker and its concurrency bound are per client, so the
 * provider builds one and shares it.
 */
export function createYouTubeClient(options: YouTubeClientOptions = {}): YouTubeClient {
  const upstream = createUpstream({
    origin: options.origin ?? defaultClientOptions.origin,
    proxyUrl: options.proxyUrl,
    fetch: options.fetch,
    timeoutMs: options.timeoutMs ?? defaultClientOptions.timeoutMs,
    retries: options.retries ?? defaultClientOptions.retries,
    retryBaseDelayMs: options.retryBaseDelayMs ?? defaultClientOptions.retryBaseDelayMs,
    breaker: options.breaker ?? defaultClientOptions.breaker,
    maxConcurrency: options.maxConcurrency ?? defaultClientOptions.maxConcurrency,
    onBreakerState: options.onBreakerState,
  });
  return {
    getVideo: (videoId) => getVideo(upstream, videoId),
    getTranscript: (videoId, transcriptOptions) => getTranscript(upstream, videoId, transcriptOptions),
    getComments: (videoId, commentOptions) => getComments(upstream, videoId, commentOptions),
    getNewestComments: (videoId, commentOptions) => getNewestComments(upstream, videoId, commentOptions),
    getPlaylist: (playlistId, pageOptions) => getPlaylist(upstream, playlistId, pageOptions),
    search: (query, searchOptions) => search(upstream, query, searchOptions),
    getChannel: (idOrHandle) => getChannel(upstream, idOrHandle),
    getChannelPlaylists: (idOrHandle, listOptions) => getChannelPlaylists(upstream, idOrHandle, listOptions),
    getStoryboardSource: (videoId, sourceOptions) => getStoryboardSource(upstream, videoId, sourceOptions?.onAttempt),
    getStoryboardSheet: (url, sheetOptions) => upstream.bytes(url, sheetOptions.maxBytes),
  };
}
