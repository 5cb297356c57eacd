import { AppError } from '@vrs/kit';
import { YouTubeError } from '@vrs/youtube';

/**
 * YouTube's failures in the error table's terms: the code (its HTTP status follows), which case it
 * was (`reason`), YouTube's own words (`platformReason`) and whether the same request may succeed
 * later (`retryable`). Anything else is a bug of ours and stays what it is (a 500).
 */
export function toAppError(error: unknown): unknown {
  if (!(error instanceof YouTubeError)) return error;
  return new AppError(error.code, error.message, {
    reason: error.reason,
    ...(error.platformReason ? { platformReason: error.platformReason } : {}),
    retryable: error.transient,
  });
}
