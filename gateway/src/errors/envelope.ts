import type { ServerResponse } from 'node:http';
import type { ErrorEnvelope } from '@vrs/contracts';
import type { AppError } from '@vrs/kit';

export function envelopeOf(error: AppError, requestId: string): ErrorEnvelope {
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.details === undefined ? {} : { details: error.details }),
      requestId,
    },
  };
}

/** `Retry-After` for a 429 or 503 whose details say when to come back (`details.retryAfterSeconds`). */
export function setRetryAfter(res: ServerResponse, error: AppError): void {
  const seconds = (error.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
  if ((error.status === 429 || error.status === 503) && typeof seconds === 'number' && !res.hasHeader('Retry-After')) {
    res.setHeader('Retry-After', String(seconds));
  }
}

/** Writes an error response in the envelope; headers already set on `res` (X-Request-Id, credits) stay. */
export function sendError(res: ServerResponse, error: AppError, requestId: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(envelopeOf(error, requestId));
  res.statusCode = error.status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  setRetryAfter(res, error);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}
