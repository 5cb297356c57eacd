import { describe, expect, it } from 'vitest';
import type { Channel, Video } from '@vrs/contracts';
import { channelMetrics, median, videoMetrics } from './metrics';

describe('comparison metrics', () => {
  it('takes medians, odd and even', () => {
    expect(median([])).toBeNull();
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('computes a video’s rates from its counts and publish date', () => {
    const video = {
      id: 'v',
      title: 'T',
      channel: { id: 'c', name: 'C', url: '' },
      viewCount: 4800,
      likeCount: 90,
      commentCount: 30,
      durationSeconds: 600,
      publishDate: '2026-01-01T00:00:00+00:00',
    } as Video;
    expect(videoMetrics(video, Date.parse('2026-01-03T00:00:00Z'))).toMatchObject({
      views: 4800,
      publishAgeHours: 48,
      viewsPerHour: 100,
      engagementRate: 0.025,
      durationSeconds: 600,
    });
    expect(videoMetrics({ ...video, publishDate: null, likeCount: null, commentCount: null }, Date.now())).toMatchObject({
      publishAgeHours: null,
      viewsPerHour: null,
      engagementRate: null,
    });
  });

  it('summarizes a channel by the medians of its recent uploads, skipping unknowns', () => {
    const upload = (viewCount: number | null, publishedTimeText: string, durationSeconds: number | null) => ({
      id: 'x',
      title: 'x',
      channel: { id: 'c', name: 'C', url: '' },
      thumbnails: [],
      viewCount,
      publishedTimeText,
      durationSeconds,
    });
    const channel = {
      id: 'UC1',
      title: 'C',
      subscriberCount: 10,
      videoCount: 3,
      recentUploads: [upload(240, '1 day ago', 60), upload(100, '10 hours ago', 120), upload(null, 'Premieres soon', null)],
    } as unknown as Channel;
    expect(channelMetrics(channel).recentUploads).toEqual({
      sampled: 3,
      medianViews: 170,
      medianViewsPerHour: 10,
      medianDurationSeconds: 90,
      medianPublishAgeHours: 17,
    });
  });
});
