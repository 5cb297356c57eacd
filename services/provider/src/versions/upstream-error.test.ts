import { describe, expect, it } from 'vitest';
import { AppError } from '@vrs/kit';
import { YouTubeError } from '@vrs/youtube';
import { toAppError } from './upstream-error';

describe('upstream errors', () => {
  it("keep the code, say which case it was in YouTube's own words, and whether a retry may help", () => {
    const error = toAppError(
      new YouTubeError({
        code: 'VIDEO_PRIVATE',
        reason: 'private',
        platformReason: 'This video is private',
        message: 'The video is private.',
      }),
      { requestId: 'req_test' },
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'VIDEO_PRIVATE',
      status: 403,
      message: 'The video is private.',
      details: { reason: 'private', platformReason: 'This video is private', retryable: false },
    });
  });

  it('say what happened in our words, never with YouTube’s response text', () => {
    const refused = new YouTubeError({
      code: 'UPSTREAM_UNAVAILABLE',
      reason: 'upstream_error',
      message: 'YouTube refused the request (404 from /youtubei/v1/search: <html>secret internals</html>)',
      transient: false,
      httpStatus: 404,
    });
    expect(toAppError(refused, { requestId: 'req_test' })).toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      message: 'YouTube refused the request.',
      details: { reason: 'upstream_error', retryable: false },
    });
    const limited = new YouTubeError({
      code: 'UPSTREAM_UNAVAILABLE',
      reason: 'rate_limited',
      message: 'YouTube rate-limited the request (429 …)',
    });
    expect(toAppError(limited, { requestId: 'req_test' })).toMatchObject({
      message: 'YouTube is rate-limiting our requests; retry later.',
      details: { retryable: true },
    });
  });

  it('answer each restriction with its own status: 451 for a region block, 409 for a live stream not ended', () => {
    const regionBlocked = new YouTubeError({
      code: 'VIDEO_REGION_BLOCKED',
      reason: 'region',
      message: 'The video is not available in the region.',
    });
    expect(toAppError(regionBlocked, { requestId: 'req_test' })).toMatchObject({ code: 'VIDEO_REGION_BLOCKED', status: 451 });
    const live = new YouTubeError({ code: 'VIDEO_LIVE_NOT_ENDED', reason: 'live_not_ended', message: 'The live stream has not ended.' });
    expect(toAppError(live, { requestId: 'req_test' })).toMatchObject({
      code: 'VIDEO_LIVE_NOT_ENDED',
      status: 409,
      details: { retryable: false },
    });
  });

  it('leave other errors alone', () => {
    const bug = new TypeError('x is undefined');
    expect(toAppError(bug, { requestId: 'req_test' })).toBe(bug);
  });
});
