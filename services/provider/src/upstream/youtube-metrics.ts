import { observeUpstreamCall, setBreakerState, type UpstreamOutcome } from '@vrs/kit';
import { YouTubeError, type YouTubeClient } from '@vrs/youtube';

/**
 * How a YouTube read ended, for `vrs_upstream_request_duration_seconds`: `4xx` is YouTube refusing
 * (429, bot check) or saying the resource is unavailable (not found, private, no captions...); `5xx`
 * is a server error or no answer at all (network).
 */
export function youtubeOutcomeOf(error: unknown): UpstreamOutcome {
  if (!(error instanceof YouTubeError)) return '5xx';
  if (error.reason === 'circuit_open') return 'breaker_open';
  if (error.reason === 'timeout') return 'timeout';
  if (error.httpStatus !== undefined) return error.httpStatus >= 500 ? '5xx' : '4xx';
  return error.reason === 'upstream_error' ? '5xx' : '4xx';
}

/** `client` with each read timed by operation (its method name) and outcome. */
export function withYouTubeMetrics(client: YouTubeClient): YouTubeClient {
  const timed = Object.entries(client).map(([operation, read]) => [
    operation,
    async (...args: unknown[]) => {
      const started = performance.now();
      try {
        const result = await (read as (...args: unknown[]) => Promise<unknown>)(...args);
        observeUpstreamCall('youtube', operation, 'ok', (performance.now() - started) / 1000);
        return result;
      } catch (error) {
        observeUpstreamCall('youtube', operation, youtubeOutcomeOf(error), (performance.now() - started) / 1000);
        throw error;
      }
    },
  ]);
  return Object.fromEntries(timed) as YouTubeClient;
}

export const youtubeBreakerMetric = (state: Parameters<typeof setBreakerState>[1]) => setBreakerState('youtube', state);
