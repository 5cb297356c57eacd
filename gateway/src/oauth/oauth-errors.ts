import type { Response } from 'express';
import { AppError } from '@vrs/kit';
import { toAppError } from '../errors/to-app-error';

/** RFC 6749 §5.1: nothing the authorization server answers may be cached. */
export function noStore(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
}

/** An OAuth refusal: our code for logs and tests, the RFC's `error` value for the wire. */
export function oauthError(code: ConstructorParameters<typeof AppError>[0], error: string, description?: string): AppError {
  return new AppError(code, description, { error });
}

/**
 * Answers a refusal as RFC 6749 §5.2 does: `{error, error_description}` at the top level, at the
 * error's status. A service's AppError carries its RFC value in `details.error` (ADR 0036/0095); any
 * other 4xx is `invalid_request`, an outage `temporarily_unavailable`; an unexpected failure is
 * rethrown to the app's 500 handler.
 */
export function sendOAuthError(res: Response, failure: unknown): void {
  const error = toAppError(failure);
  if (error.code === 'INTERNAL_ERROR') throw failure;
  const details = (error.details ?? {}) as Record<string, unknown>;
  const value = typeof details.error === 'string' ? details.error : error.status >= 500 ? 'temporarily_unavailable' : 'invalid_request';
  const status = typeof details.error === 'string' || error.status >= 500 ? error.status : 400;
  noStore(res);
  if (typeof details.retryAfterSeconds === 'number') res.setHeader('Retry-After', String(details.retryAfterSeconds));
  const body: Record<string, unknown> = { error: value, error_description: error.message };
  if (typeof details.interval === 'number') body.interval = details.interval;
  res.status(status).json(body);
}
