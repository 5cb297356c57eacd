import { AppError, createLogger, requestLogFields, type RequestContext } from '@vrs/kit';
import { YouTubeError, type YouTubeErrorReason } from '@vrs/youtube';

const log = createLogger('provider');

/**
 * What we tell a caller when YouTube itself failed. Our words, never YouTube's response text: that
 * can carry anything (HTML, tokens, internal hints) and goes to the log with the request id instead.
 */
const publicMessages: Partial<Record<YouTubeErrorReason, string>> = {
  rate_limited: 'YouTube is rate-limiting our requests; retry later.',
  timeout: 'YouTube did not answer in time; retry later.',
  circuit_open: 'Calls to YouTube are paused after repeated failures; retry later.',
  bot_check: 'YouTube asked for a bot check; retry later.',
  captions_withheld: 'YouTube withheld the captions; retry later.',
};

function publicMessageOf(error: YouTubeError): string {
  if (error.code !== 'UPSTREAM_UNAVAILABLE') return error.message;
  return publicMessages[error.reason] ?? (error.transient ? 'YouTube failed to answer; retry later.' : 'YouTube refused the request.');
}

/**
 * YouTube's failures in the error table's terms: code, `reason`, YouTube's words about the video
 * (`platformReason`) and `retryable`. Anything else is a bug of ours and stays what it is (a 500).
 */
export function toAppError(error: unknown, request: RequestContext): unknown {
  if (!(error instanceof YouTubeError)) return error;
  if (error.code === 'UPSTREAM_UNAVAILABLE') {
    log.warn(
      { reason: error.reason, httpStatus: error.httpStatus, upstream: error.message, ...requestLogFields(request) },
      'YouTube failed',
    );
  }
  return new AppError(error.code, publicMessageOf(error), {
    reason: error.reason,
    ...(error.platformReason ? { platformReason: error.platformReason } : {}),
    retryable: error.transient,
    ...(error.transient && error.retryAfterMs !== undefined
      ? { retryAfterSeconds: Math.max(1, Math.ceil(error.retryAfterMs / 1000)) }
      : {}),
  });
}
