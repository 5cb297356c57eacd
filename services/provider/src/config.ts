import { z } from 'zod';
import { baseEnvShape } from '@vrs/kit';
import type { YouTubeClientOptions } from '@vrs/youtube';
import { defaultClientOptions } from '@vrs/youtube/client-options';

/**
 * How the provider reaches YouTube. Tests shorten the timings; `YOUTUBE_UPSTREAM_URL` points the
 * client at the fake upstream (tests, offline `npm start`) instead of https://www.youtube.com.
 * Read by the provider process and by the gateway when it hosts the provider in-process.
 */
export const youtubeEnvShape = {
  YOUTUBE_UPSTREAM_URL: z.url().optional(),
  /** Egress proxy for every YouTube request (http:// or https:// proxy URL). */
  YOUTUBE_PROXY_URL: z.url().optional(),
  /** Per attempt, including reading the body. */
  YOUTUBE_TIMEOUT_MS: z.coerce.number().int().min(1).default(defaultClientOptions.timeoutMs),
  /** Retries after the first attempt, for 429, 5xx, timeouts and network errors only. */
  YOUTUBE_RETRIES: z.coerce.number().int().min(0).max(10).default(defaultClientOptions.retries),
  YOUTUBE_RETRY_BASE_DELAY_MS: z.coerce.number().int().min(0).default(defaultClientOptions.retryBaseDelayMs),
  /** Consecutive transport failures that open the circuit breaker. */
  YOUTUBE_BREAKER_THRESHOLD: z.coerce.number().int().min(1).default(defaultClientOptions.breaker.failureThreshold),
  /** How long an open breaker refuses calls before one trial call may close it. */
  YOUTUBE_BREAKER_HALF_OPEN_MS: z.coerce.number().int().min(1).default(defaultClientOptions.breaker.halfOpenAfterMs),
  /** Requests to YouTube in flight at once per upstream host (www.youtube.com, youtubei.googleapis.com), per process. */
  YOUTUBE_MAX_CONCURRENCY: z.coerce.number().int().min(1).default(defaultClientOptions.maxConcurrency),
} as const;

/** How many versions of each resource the provider keeps (ADR 0029); read by the gateway too when it hosts the provider. */
export const defaultVersionsKept = 10;
export const providerRetentionEnvShape = {
  PROVIDER_VERSIONS_KEPT: z.coerce.number().int().min(1).default(defaultVersionsKept),
} as const;

export const providerEnvSchema = z.object({ ...baseEnvShape, ...youtubeEnvShape, ...providerRetentionEnvShape });
export type ProviderConfig = z.infer<typeof providerEnvSchema>;

export function youtubeClientOptionsOf(env: z.infer<z.ZodObject<typeof youtubeEnvShape>>): YouTubeClientOptions {
  return {
    origin: env.YOUTUBE_UPSTREAM_URL,
    proxyUrl: env.YOUTUBE_PROXY_URL,
    timeoutMs: env.YOUTUBE_TIMEOUT_MS,
    retries: env.YOUTUBE_RETRIES,
    retryBaseDelayMs: env.YOUTUBE_RETRY_BASE_DELAY_MS,
    breaker: { failureThreshold: env.YOUTUBE_BREAKER_THRESHOLD, halfOpenAfterMs: env.YOUTUBE_BREAKER_HALF_OPEN_MS },
    maxConcurrency: env.YOUTUBE_MAX_CONCURRENCY,
  };
}
