import { getChannel } from './operations/get-channel';
import { getChannelPlaylists } from './operations/get-channel-playlists';
import { getComments } from './operations/get-comments';
import { getNewestComments } from './operations/get-newest-comments';
import { getPlaylist } from './operations/get-playlist';
import type { PlayerAttempt } from './operations/fetch-player';
import { getStoryboardSource } from './operations/get-storyboard';
import { search } from './operations/search';
import { getTranscript } from './operations/get-transcript';
import { getVideo } from './operations/get-video';
import { createUpstream, type Upstream, type UpstreamOptions } from './transport/upstream';
import { defaultClientOptions } from './client-options';

/** The upstream's options, each one left out taking its value from `defaultClientOptions`. */
export type YouTubeClientOptions = Partial<UpstreamOptions>;

export { defaultClientOptions };

/**
 * One client per process: its circuit breaker and its concurrency bound are per client, so the
 * provider builds one and shares it.
 */
export function createYouTubeClient(options: YouTubeClientOptions = {}) {
  const upstream = createUpstream({
    ...options,
    origin: options.origin ?? defaultClientOptions.origin,
    timeoutMs: options.timeoutMs ?? defaultClientOptions.timeoutMs,
    retries: options.retries ?? defaultClientOptions.retries,
    retryBaseDelayMs: options.retryBaseDelayMs ?? defaultClientOptions.retryBaseDelayMs,
    breaker: options.breaker ?? defaultClientOptions.breaker,
    maxConcurrency: options.maxConcurrency ?? defaultClientOptions.maxConcurrency,
  });
  /** An operation with this client's upstream. */
  const bound =
    <A extends unknown[], R>(operation: (upstream: Upstream, ...args: A) => R) =>
    (...args: A) =>
      operation(upstream, ...args);
  return {
    getVideo: bound(getVideo),
    getTranscript: bound(getTranscript),
    getComments: bound(getComments),
    getNewestComments: bound(getNewestComments),
    getPlaylist: bound(getPlaylist),
    search: bound(search),
    getChannel: bound(getChannel),
    getChannelPlaylists: bound(getChannelPlaylists),
    /** The storyboard spec of the video's player response; `onAttempt` hears each player client's turn. */
    getStoryboardSource: (videoId: string, sourceOptions?: { onAttempt?: (attempt: PlayerAttempt) => void }) =>
      getStoryboardSource(upstream, videoId, sourceOptions?.onAttempt),
    /** One storyboard sheet image (a URL built from a spec), refused when longer than `maxBytes`. */
    getStoryboardSheet: (url: string, sheetOptions: { maxBytes: number }) => upstream.bytes(url, sheetOptions.maxBytes),
  };
}

export type YouTubeClient = ReturnType<typeof createYouTubeClient>;
