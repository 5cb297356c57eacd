import { ApiError } from '@vrs/client';

/** The exit codes of `vrs` (docs/cli.md, "exit codes"): scripts branch on the class of failure. */
export const exitCodes = {
  ok: 0,
  /** Anything not below: a failed job, a rate limit, a server error. */
  other: 1,
  /** The command line or the request's input was wrong (unknown option, 400/413/415/422). */
  usage: 2,
  /** No credential, a wrong or revoked one, or one without the needed permission (401, 403 scope). */
  auth: 3,
  /** The account's balance does not cover the operation (402). */
  insufficientCredits: 4,
  /** The thing named does not exist or is someone else's (404). */
  notFound: 5,
  /** The API or a platform it depends on cannot be reached (no connection, 502/503/504). */
  unavailable: 6,
} as const;

/** A mistake on the command line found before any request was made. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** No credential at all: nothing was sent. */
export class NotSignedInError extends Error {
  override name = 'NotSignedInError';
  constructor() {
    super('Not signed in: run `vrs login`, or set VRS_API_KEY.');
  }
}

/** A job or run that ended without success; the API call itself worked. */
export class FailedWorkError extends Error {
  override name = 'FailedWorkError';
}

const authForbiddenCodes = new Set(['INSUFFICIENT_SCOPE', 'FORBIDDEN', 'AGENTS_NOT_ENABLED', 'DEMO_MODE_DISABLED']);

export function exitCodeOf(error: unknown): number {
  if (error instanceof UsageError) return exitCodes.usage;
  if (error instanceof NotSignedInError) return exitCodes.auth;
  if (!(error instanceof ApiError)) return exitCodes.other;
  if (error.code === 'NETWORK_ERROR') return exitCodes.unavailable;
  if (error.status === 401 || (error.status === 403 && authForbiddenCodes.has(error.code))) return exitCodes.auth;
  if (error.status === 402) return exitCodes.insufficientCredits;
  if (error.status === 404) return exitCodes.notFound;
  if ([400, 413, 415, 422].includes(error.status)) return exitCodes.usage;
  if ([502, 503, 504].includes(error.status)) return exitCodes.unavailable;
  return exitCodes.other;
}
