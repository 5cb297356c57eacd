import { describe, expect, it } from 'vitest';
import { ApiError, type ApiErrorCode } from '@vrs/client';
import { exitCodeOf, exitCodes, FailedWorkError, NotSignedInError, UsageError } from './exit-codes';

const apiError = (status: number, code: ApiErrorCode | 'NETWORK_ERROR') => new ApiError({ status, code, message: 'm', requestId: 'req_1' });

describe('exit codes per error class', () => {
  it.each([
    ['a usage error found before any request', new UsageError('x'), exitCodes.usage],
    ['422 validation', apiError(422, 'VALIDATION_FAILED'), exitCodes.usage],
    ['400 malformed', apiError(400, 'MALFORMED_JSON'), exitCodes.usage],
    ['no credential', new NotSignedInError(), exitCodes.auth],
    ['401 unknown key', apiError(401, 'INVALID_API_KEY'), exitCodes.auth],
    ['403 missing scope', apiError(403, 'INSUFFICIENT_SCOPE'), exitCodes.auth],
    ['403 agents not enabled', apiError(403, 'AGENTS_NOT_ENABLED'), exitCodes.auth],
    ['402 short balance', apiError(402, 'INSUFFICIENT_CREDITS'), exitCodes.insufficientCredits],
    ['404 project', apiError(404, 'PROJECT_NOT_FOUND'), exitCodes.notFound],
    ['404 video', apiError(404, 'VIDEO_UNAVAILABLE'), exitCodes.notFound],
    ['no connection', apiError(0, 'NETWORK_ERROR'), exitCodes.unavailable],
    ['503 upstream', apiError(503, 'UPSTREAM_UNAVAILABLE'), exitCodes.unavailable],
    ['503 AI', apiError(503, 'AI_UNAVAILABLE'), exitCodes.unavailable],
    ['403 private video (not an auth problem)', apiError(403, 'VIDEO_PRIVATE'), exitCodes.other],
    ['429 rate limited', apiError(429, 'RATE_LIMITED'), exitCodes.other],
    ['500', apiError(500, 'INTERNAL_ERROR'), exitCodes.other],
    ['a failed job', new FailedWorkError('x'), exitCodes.other],
    ['anything else', new TypeError('x'), exitCodes.other],
  ])('%s → its code', (_name, error, code) => {
    expect(exitCodeOf(error)).toBe(code);
  });

  it('keeps the documented numbers', () => {
    expect(exitCodes).toEqual({ ok: 0, other: 1, usage: 2, auth: 3, insufficientCredits: 4, notFound: 5, unavailable: 6 });
  });
});
