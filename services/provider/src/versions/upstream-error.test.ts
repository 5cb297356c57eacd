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

  it('leave other errors alone', () => {
    const bug = new TypeError('x is undefined');
    expect(toAppError(bug)).toBe(bug);
  });
});
