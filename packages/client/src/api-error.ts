import type { components } from './generated/api';

/** Every code the API can answer with (the `enum` of `ErrorEnvelope.error.code`). */
export type ApiErrorCode = components['schemas']['ErrorEnvelope']['error']['code'];

/** Codes the client itself reports when no envelope came back. */
export type ClientErrorCode = 'NETWORK_ERROR' | 'UNEXPECTED_RESPONSE';

/** The API's error envelope as a typed error: branch on `code`, quote `requestId` to support. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ApiErrorCode | ClientErrorCode;
  readonly requestId: string | undefined;
  readonly details: unknown;
  readonly meta: ResponseMeta | undefined;

  constructor(init: {
    status: number;
    code: ApiErrorCode | ClientErrorCode;
    message: string;
    requestId?: string;
    details?: unknown;
    meta?: ResponseMeta;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details;
    this.meta = init.meta;
  }
}

/** What every response says besides its body: who answered, what it cost, how much rate limit is left. */
export interface ResponseMeta {
  status: number;
  requestId: string | undefined;
  /** Present on priced operations (`X-Credits-Charged`, `X-Credits-Remaining`). */
  credits: { charged: number; remaining: number } | undefined;
  /** IETF RateLimit draft-6 headers, when the response carries them. */
  rateLimit: { limit: number; remaining: number; resetSeconds: number; policy: string | undefined } | undefined;
  /** Seconds to wait before retrying (a 429 or 503). */
  retryAfterSeconds: number | undefined;
}

const numberHeader = (headers: Headers, name: string) => {
  const value = headers.get(name);
  return value === null || value.trim() === '' || Number.isNaN(Number(value)) ? undefined : Number(value);
};

export function metaOf(response: Response): ResponseMeta {
  const { headers } = response;
  const charged = numberHeader(headers, 'x-credits-charged');
  const remaining = numberHeader(headers, 'x-credits-remaining');
  const limit = numberHeader(headers, 'ratelimit-limit');
  const left = numberHeader(headers, 'ratelimit-remaining');
  const reset = numberHeader(headers, 'ratelimit-reset');
  return {
    status: response.status,
    requestId: headers.get('x-request-id') ?? undefined,
    credits: charged === undefined ? undefined : { charged, remaining: remaining ?? 0 },
    rateLimit:
      limit === undefined || left === undefined
        ? undefined
        : { limit, remaining: left, resetSeconds: reset ?? 0, policy: headers.get('ratelimit-policy') ?? undefined },
    retryAfterSeconds: numberHeader(headers, 'retry-after'),
  };
}

function isEnvelope(body: unknown): body is components['schemas']['ErrorEnvelope'] {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof error?.code === 'string' && typeof error.message === 'string';
}

/** The error a non-2xx response stands for: its envelope when it has one, else what the client saw. */
export function apiErrorOf(response: Response, body: unknown): ApiError {
  const meta = metaOf(response);
  if (isEnvelope(body)) {
    const { code, message, details, requestId } = body.error;
    return new ApiError({ status: response.status, code, message, details, requestId: requestId ?? meta.requestId, meta });
  }
  return new ApiError({
    status: response.status,
    code: 'UNEXPECTED_RESPONSE',
    message: `The server answered ${response.status} without the error envelope.`,
    requestId: meta.requestId,
    details: typeof body === 'string' ? body.slice(0, 500) : body,
    meta,
  });
}
