export type YouTubeErrorCode =
  | 'VIDEO_UNAVAILABLE'
  | 'VIDEO_AGE_RESTRICTED'
  | 'VIDEO_PRIVATE'
  | 'VIDEO_MEMBERS_ONLY'
  | 'VIDEO_PAID'
  | 'VIDEO_REGION_BLOCKED'
  | 'VIDEO_LIVE_NOT_ENDED'
  | 'VIDEO_RESTRICTED'
  | 'TRANSCRIPT_UNAVAILABLE'
  | 'UPSTREAM_UNAVAILABLE'
  | 'PLAYLIST_NOT_FOUND'
  | 'CHANNEL_NOT_FOUND';

export type YouTubeErrorReason =
  | 'not_found'
  | 'private'
  | 'age'
  | 'members_only'
  | 'premium'
  | 'paid'
  | 'region'
  | 'live_not_ended'
  | 'restricted'
  | 'no_captions'
  | 'captions_withheld'
  | 'bot_check'
  | 'rate_limited'
  | 'upstream_error'
  | 'timeout'
  | 'circuit_open';

// A later identical request may succeed for these; the others describe the resource itself.
const transientReasons = new Set<YouTubeErrorReason>([
  'captions_withheld',
  'bot_check',
  'rate_limited',
  'upstream_error',
  'timeout',
  'circuit_open',
]);

export interface YouTubeErrorInit {
  code: YouTubeErrorCode;
  reason: YouTubeErrorReason;
  message: string;
  /** YouTube's own words (playability reason, alert text), when it gave any. */
  platformReason?: string;
  /** Overrides the default of the reason, e.g. an HTTP 4xx `upstream_error` is not transient. */
  transient?: boolean;
  httpStatus?: number;
  /** When the same request may be tried again, if known (YouTube's Retry-After, the breaker's pause). */
  retryAfterMs?: number;
  cause?: unknown;
}

/** Every upstream failure surfaces as one of these: never as an empty success. */
export class YouTubeError extends Error {
  readonly code: YouTubeErrorCode;
  readonly reason: YouTubeErrorReason;
  readonly platformReason?: string;
  readonly transient: boolean;
  readonly httpStatus?: number;
  readonly retryAfterMs?: number;

  constructor(init: YouTubeErrorInit) {
    super(init.message, { cause: init.cause });
    this.name = 'YouTubeError';
    this.code = init.code;
    this.reason = init.reason;
    this.platformReason = init.platformReason;
    this.transient = init.transient ?? transientReasons.has(init.reason);
    this.httpStatus = init.httpStatus;
    this.retryAfterMs = init.retryAfterMs;
  }
}

export function upstreamError(reason: YouTubeErrorReason, message: string, extra: Partial<YouTubeErrorInit> = {}): YouTubeError {
  return new YouTubeError({ code: 'UPSTREAM_UNAVAILABLE', reason, message, ...extra });
}

/** What YouTube answers for a video, playlist or channel that does not exist (any more). */
export function notFoundError(code: YouTubeErrorCode, platformReason: string, message: string): YouTubeError {
  return new YouTubeError({ code, reason: 'not_found', platformReason, message });
}

/** Failures of the HTTP exchange itself, which retries and the circuit breaker act on. */
export function isTransportFailure(error: unknown): boolean {
  return (
    error instanceof YouTubeError &&
    error.transient &&
    (error.reason === 'rate_limited' || error.reason === 'upstream_error' || error.reason === 'timeout')
  );
}
