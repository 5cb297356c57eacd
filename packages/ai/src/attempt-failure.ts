import type { AiSdk } from './ai-sdk';

export type FailedOutcome = 'timeout' | 'error' | 'invalid-output';

export interface AttemptFailure {
  outcome: FailedOutcome;
  /**
   * Short and free of upstream detail (URLs, response bodies): it reaches API callers in
   * `AI_UNAVAILABLE` details. The full error goes to the log.
   */
  reason: string;
  /** The HTTP status of an error answer. */
  statusCode?: number;
}

/** Why one model's turn failed, from the error the AI SDK (`sdk`, loaded) threw. */
export function describeAttemptFailure(sdk: AiSdk, error: unknown, timedOut: boolean, timeoutMs: number): AttemptFailure {
  const { APICallError, JSONParseError, NoObjectGeneratedError, NoOutputGeneratedError, RetryError, TypeValidationError } = sdk;
  if (timedOut) return { outcome: 'timeout', reason: `no answer within ${timeoutMs} ms` };
  if (RetryError.isInstance(error)) {
    const last = describeAttemptFailure(sdk, error.lastError, false, timeoutMs);
    return { ...last, reason: `${last.reason} (after ${error.errors.length} tries)` };
  }
  if (NoObjectGeneratedError.isInstance(error) || NoOutputGeneratedError.isInstance(error)) {
    const cause = error.cause;
    if (JSONParseError.isInstance(cause)) return { outcome: 'invalid-output', reason: 'the answer was not valid JSON' };
    if (TypeValidationError.isInstance(cause)) return { outcome: 'invalid-output', reason: 'the answer did not match the schema' };
    return { outcome: 'invalid-output', reason: 'no structured answer' };
  }
  if (APICallError.isInstance(error)) {
    return error.statusCode
      ? { outcome: 'error', reason: `HTTP ${error.statusCode}`, statusCode: error.statusCode }
      : { outcome: 'error', reason: 'the endpoint could not be reached' };
  }
  return { outcome: 'error', reason: 'unexpected error' };
}
