import { describe, expect, it } from 'vitest';
import { YouTubeError } from '../errors';
import { videoRecordSchema } from '../shapes/video';
import { hasRecorded, reportMissingShared, useReplay, testClient } from '@vrs/testing/youtube-replay';

reportMissingShared('getVideo');

describe.skipIf(!hasRecorded)('getVideo over the recordings', () => {
  const fake = useReplay();

  it('normalizes a regular video from player, microformat and /next', async () => {
    const video = videoRecordSchema.parse(await testClient(fake).getVideo('rCAS2eD-mcw'));
    expect(video).toMatchObject({
      id: 'rCAS2eD-mcw',
      title: 'Laryngeal Mask Airway (LMA) insertion | ESSENTIAL TECHNIQUES for standard patients',
      channel: { id: 'UCs1fy2n5Ey0c9VZRBL7UCsg', name: 'ABCs of Anaesthesia' },
      durationSeconds: 343,
      publishDate: '2022-07-03T04:00:25-07:00',
      viewCount: 81077,
      likeCount: 1000,
      commentCount: 18,
      isLive: false,
      isUpcoming: false,
      hasCaptions: true,
      partial: false,
      warnings: [],
    });
    expect(video.keywords).toContain('LMA');
    expect(video.thumbnails[0]).toMatchObject({ url: expect.stringContaining('rCAS2eD-mcw'), width: expect.any(Number) });
    expect(video.captionTracks).toHaveLength(13);
    expect(video.captionTracks.find((t) => t.isDefault)).toMatchObject({ id: '.en', languageCode: 'en', kind: 'manual' });
    expect(video.captionTracks.find((t) => t.id === 'a.en')).toMatchObject({ kind: 'asr', name: 'English (auto-generated)' });
    expect(video.internal.captionBaseUrls['.de']).toContain('/api/timedtext?');
  });

  it('reports a live stream as live', async () => {
    const video = await testClient(fake).getVideo('X4VbdwhkE10');
    expect(video).toMatchObject({ id: 'X4VbdwhkE10', isLive: true, channel: { id: 'UCSJ4gkVC6NrvII8umztf0Ow', name: 'Lofi Girl' } });
    expect(video.publishDate).toBe('2026-06-03T23:49:58-07:00');
  });

  it('returns player metadata with warnings when the enrichment requests fail', async () => {
    const video = await testClient(fake).getVideo('dsMFmonKDD4');
    expect(video).toMatchObject({ id: 'dsMFmonKDD4', hasCaptions: false, captionTracks: [], partial: true, publishDate: null });
    expect(video.warnings.join('\n')).toMatch(/publish date and like count \(WEB player\) unavailable/);
  });

  const errorCases: [string, string, string, string | RegExp][] = [
    ['INVALID_ID_', 'VIDEO_UNAVAILABLE', 'not_found', /empty player response/],
    ['don-t-exist', 'VIDEO_UNAVAILABLE', 'not_found', /empty player response/],
    ['8VajtrESJzA', 'VIDEO_PRIVATE', 'private', 'This video is private'],
    ['ayI2iBwGdxw', 'VIDEO_MEMBERS_ONLY', 'members_only', /members/],
    ['sMJ8bRN2dak', 'VIDEO_PAID', 'premium', /Music Premium/],
    ['_PL2HJKxnOM', 'VIDEO_REGION_BLOCKED', 'region', /country/],
    ['Njp5uhTorCo', 'VIDEO_AGE_RESTRICTED', 'age', /inappropriate/],
  ];
  it.each(errorCases)('maps the recorded player of %s to %s / %s', async (id, code, reason, platformReason) => {
    const error = await testClient(fake)
      .getVideo(id)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(YouTubeError);
    expect(error).toMatchObject({ code, reason, transient: false });
    expect((error as YouTubeError).platformReason ?? (error as YouTubeError).message).toMatch(platformReason);
  });

  it('maps the bot check to a transient UPSTREAM_UNAVAILABLE', async () => {
    fake.select('youtube/youtube-transcript-api.index.json#5');
    const error = await testClient(fake)
      .getVideo('Njp5uhTorCo')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', reason: 'bot_check', transient: true });
    expect((error as YouTubeError).platformReason).toMatch(/not a bot/);
  });
});
