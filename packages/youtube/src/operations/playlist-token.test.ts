import { describe, expect, it } from 'vitest';
import { playlistFirstPageToken } from './playlist-token';

describe('playlist first-page token', () => {
  it('is the token NewPipe sent in the recorded 2026 request', () => {
    expect(playlistFirstPageToken('PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr')).toBe(
      '4qmFsgJdEiRWTFBMb3VtbjVCSXNVRGVHRjF2eTVOeWxmX1JKS241YUxfbnIaEENBRENCZ0lJQUElM0QlM0SaAiJQTG91bW41QklzVURlR0Yxdnk1TnlsZl9SSktuNWFMX25y',
    );
  });
});
