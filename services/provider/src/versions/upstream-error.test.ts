import { describe, expect, it } from 'vitest';
import { AppError } from '@vrs/kit';
import { YouTubeError } from '@vrs/youtube';
import { toAppError } from './upstream-error';

describe('upstream errors', () => {
  it("keep the code, say which case it was in YouTube's own words, and whether a retry may help", () => {
    const error = toAppError(
      new YouTubeError({
        code: 'VIDEO_RESTRICTED',
        reason: 'private',
        platformReason: 'This video is private',
        message: 'The video is restricted: This video is private',
      }),
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'VIDEO_RESTRICTED',
      status: 403,
      message: 'The video is restricted: This video is private',
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
    expect(toAppError(refused)).toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      message: 'YouTube refused the request.',
      details: { reason: 'upstream_error', retryable: false },
    });
    const limited = new YouTubeError({
      code: 'UPSTREAM_UNAVAILABLE',
      reason: 'rate_limited',
      message: 'YouTube rate-limited the request (429 …)',
    });
    expect(toAppError(limited)).toMatchObject({
      message: 'YouTube is rate-limiting our requests; retry later.',
      details: { retryable: true },
    });
  });

  it('leave other errors alone', () => {
    const bug = new TypeError('x is undefined');
    expect(toAppError(bug)).toBe(bug);
  });
});
