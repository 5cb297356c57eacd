import { describe, expect, it } from 'vitest';
import { hoursFromRelativeText, type SearchVideo, type Video } from '@vrs/contracts';
import { reportConfidence } from './confidence';
import { diversifiedSample } from './sample';
import { percentileRank, median } from './stats';
import { type EnrichedVideo, scoreSample } from './score-sample';
import { channelBaselineViewsPerHour, observedSignals } from './signals';
import { trendBand, trendScore } from './scores';

/**
 * The worked example of docs/methodology/trends-3.0.md, as data: four videos of "cold brew" seen
 * at 2026-01-20T12:00:00Z. The unit tests check every formula against the figures the document
 * computes by hand from it.
 */
const exampleNow = '2026-01-20T12:00:00.000Z';

function video(
  id: string,
  title: string,
  counts: { views: number; likes: number; comments: number },
  durationSeconds: number,
  hashtags: string[],
): Video {
  return {
    id,
    title,
    description: '',
    channel: { id: `UC_${id}`, name: `Channel ${id}`, url: '' },
    thumbnails: [],
    durationSeconds,
    publishDate: null,
    viewCount: counts.views,
    likeCount: counts.likes,
    commentCount: counts.comments,
    keywords: [],
    hashtags,
    isLive: false,
    isUpcoming: false,
    hasCaptions: false,
    captionTracks: [],
    meta: { provider: 'youtube', source: 'example', fetchedAt: exampleNow, partial: false, warnings: [] },
  };
}

const exampleVideos: EnrichedVideo[] = [
  {
    video: video('A', 'How to make cold brew in 5 minutes', { views: 48_000, likes: 2_400, comments: 240 }, 45, ['#coldbrew', '#coffee']),
    source: 'provider',
    publishDate: '2026-01-19T12:00:00.000Z',
    searchRank: 1,
    publishedTimeText: '1 day ago',
    earlier: [
      { views: 36_000, likes: 1_900, comments: 200, at: '2026-01-20T08:00:00.000Z' },
      { views: 33_000, likes: 1_700, comments: 180, at: '2026-01-20T06:00:00.000Z' },
    ],
    baselineViewsPerHour: 1_000,
  },
  {
    video: video('B', 'Cold brew vs iced coffee: which is better?', { views: 108_000, likes: 3_240, comments: 360 }, 600, ['#coldbrew']),
    source: 'provider',
    publishDate: '2026-01-17T12:00:00.000Z',
    searchRank: 2,
    publishedTimeText: '3 days ago',
    earlier: [{ views: 102_000, likes: 3_100, comments: 350, at: '2026-01-20T06:00:00.000Z' }],
    baselineViewsPerHour: 2_000,
  },
  {
    video: video('C', '7 cold brew mistakes (and how to fix them)', { views: 5_000, likes: 400, comments: 100 }, 480, [
      '#coldbrew',
      '#recipe',
    ]),
    source: 'provider',
    publishDate: '2026-01-20T02:00:00.000Z',
    searchRank: 3,
    publishedTimeText: '10 hours ago',
    earlier: [],
    baselineViewsPerHour: 250,
  },
  {
    video: video(
      'D',
      'The ultimate cold brew guide for beginners, with every ratio and grind size [2026]',
      { views: 168_000, likes: 1_680, comments: 168 },
      1_800,
      ['#coffee'],
    ),
    source: 'provider',
    publishDate: '2026-01-06T12:00:00.000Z',
    searchRank: 4,
    publishedTimeText: '2 weeks ago',
    earlier: [],
    baselineViewsPerHour: null,
  },
];

/** Channel A's Videos tab in the example: its baseline is the median of these rates. */
const exampleChannelUploads = [
  { viewCount: 24_000, publishedTimeText: '1 day ago' },
  { viewCount: 1_500, publishedTimeText: '3 hours ago' },
  { viewCount: 336_000, publishedTimeText: '2 weeks ago' },
];

// Every figure below is computed by hand in docs/methodology/trends-3.0.md ("Worked example").
const scored = scoreSample(exampleVideos, exampleNow, 7);
const byId = (id: string) => scored.videos.find((video) => video.id === id)!;

describe('methodology 3.0 against the worked example', () => {
  it('§1 velocity: age (h), lifetime views/hour', () => {
    expect(['A', 'B', 'C', 'D'].map((id) => byId(id).ageHours)).toEqual([24, 72, 10, 336]);
    expect(['A', 'B', 'C', 'D'].map((id) => byId(id).viewsPerHour)).toEqual([2000, 1500, 500, 500]);
  });

  it('§2 observed signals: deltas, observed and previous rate, acceleration', () => {
    expect(byId('A')).toMatchObject({
      signalSource: 'observed',
      observationHours: 4,
      viewDelta: 12_000,
      likeDelta: 500,
      commentDelta: 40,
      observedViewsPerHour: 3000,
      previousViewsPerHour: 1500,
      accelerationPercent: 100,
      effectiveViewsPerHour: 3000,
    });
    expect(byId('B')).toMatchObject({
      signalSource: 'observed',
      observationHours: 6,
      viewDelta: 6000,
      observedViewsPerHour: 1000,
      previousViewsPerHour: 1545.45,
      accelerationPercent: -35.3,
    });
    expect(byId('C')).toMatchObject({ signalSource: 'lifetime', effectiveViewsPerHour: 500 });
    expect(byId('C').observedViewsPerHour).toBeUndefined();
    // A snapshot younger than 15 minutes measures nothing.
    expect(
      observedSignals(
        { views: 10, likes: 0, comments: 0, at: exampleNow },
        [{ views: 5, likes: 0, comments: 0, at: '2026-01-20T11:50:00.000Z' }],
        '2026-01-19T12:00:00.000Z',
      ),
    ).toBeNull();
  });

  it('§3 channel baseline and lift; engagement', () => {
    expect(channelBaselineViewsPerHour(exampleChannelUploads)).toBe(1000);
    expect(channelBaselineViewsPerHour([{ viewCount: null, publishedTimeText: '1 day ago' }])).toBeNull();
    expect(['A', 'B', 'C', 'D'].map((id) => byId(id).channelLift)).toEqual([3, 0.5, 2, 1]);
    expect(byId('D').channelBaselineViewsPerHour).toBeUndefined();
    expect(['A', 'B', 'C', 'D'].map((id) => byId(id).engagementRate)).toEqual([0.055, 0.0333, 0.1, 0.011]);
  });

  it('§4 percentiles (mid-rank), trend score, band, velocity rank, video confidence', () => {
    expect(percentileRank(500, [3000, 1000, 500, 500])).toBe(25);
    expect(byId('A').percentiles).toEqual({ velocity: 88, freshness: 63, channelPerformance: 88, engagement: 63, acceleration: 88 });
    expect(byId('B').percentiles).toEqual({ velocity: 63, freshness: 38, channelPerformance: 13, engagement: 38, acceleration: 13 });
    expect(byId('C').percentiles).toEqual({ velocity: 25, freshness: 88, channelPerformance: 63, engagement: 88, acceleration: 50 });
    expect(byId('D').percentiles).toEqual({ velocity: 25, freshness: 13, channelPerformance: 38, engagement: 13, acceleration: 50 });
    expect(['A', 'B', 'C', 'D'].map((id) => byId(id).trendScore)).toEqual([81, 38, 55, 28]);
    expect(['A', 'B', 'C', 'D'].map((id) => byId(id).trendBand)).toEqual(['Breakout', 'Cooling', 'Steady', 'Cooling']);
    expect(trendScore({ velocity: 100, freshness: 100, channelPerformance: 100, engagement: 100, acceleration: 100 })).toBe(100);
    expect([80, 79, 60, 40, 39].map(trendBand)).toEqual(['Breakout', 'Rising', 'Rising', 'Steady', 'Cooling']);
    expect(['A', 'B', 'C', 'D'].map((id) => byId(id).velocityRank)).toEqual([1, 2, 3, 4]);
    expect(['A', 'B', 'C', 'D'].map((id) => byId(id).confidenceScore)).toEqual([100, 100, 70, 50]);
  });

  it('§5 summary', () => {
    expect(scored.summary).toEqual({
      totalViews: 329_000,
      medianViewsPerHour: 1000,
      publishedLast7Days: 3,
      breakoutCount: 1,
      acceleratingCount: 1,
      medianObservedViewsPerHour: 2000,
      medianRecentViewsPerHour: 1000,
      recentVelocityLift: 1.33,
    });
    expect(median([])).toBe(0);
  });

  it('§6 patterns and the deterministic plan', () => {
    expect(scored.hashtags).toEqual([
      { tag: '#coldbrew', count: 3, share: 0.75, medianVelocity: 1000 },
      { tag: '#coffee', count: 2, share: 0.5, medianVelocity: 1750 },
      { tag: '#recipe', count: 1, share: 0.25, medianVelocity: 500 },
    ]);
    const patterns = Object.fromEntries(
      scored.titlePatterns.map(({ pattern, count, medianVelocity }) => [pattern, [count, medianVelocity]]),
    );
    expect(patterns).toEqual({
      question: [1, 1000],
      number: [3, 500],
      howTo: [2, 1750],
      list: [1, 500],
      brackets: [2, 500],
      lengthShort: [1, 3000],
      lengthMedium: [2, 750],
      lengthLong: [1, 500],
    });
    expect(scored.durationMix).toEqual([
      { bucket: 'shorts', count: 1, share: 0.25, medianVelocity: 3000 },
      { bucket: 'short', count: 0, share: 0, medianVelocity: 0 },
      { bucket: 'medium', count: 2, share: 0.5, medianVelocity: 750 },
      { bucket: 'long', count: 1, share: 0.25, medianVelocity: 500 },
    ]);
    expect(scored.plan).toMatchObject({ format: 'medium', titlePatterns: ['howTo'], hashtags: ['#coffee', '#coldbrew'] });
    expect(scored.plan.steps).toHaveLength(3);
  });

  it('§7 report confidence', () => {
    expect(
      reportConfidence({
        sampleSize: 4,
        enrichedVideos: 4,
        observedVideos: 2,
        failedEnrichments: 0,
        channels: 4,
        channelsWithoutBaseline: 1,
      }),
    ).toEqual({
      score: 64,
      level: 'medium',
      reasons: [
        'Small sample: 4 videos scored (12 or more give stable percentiles).',
        'No earlier snapshot for 2 of 4 videos: lifetime velocity used.',
        'No channel baseline for 1 of 4 channels.',
      ],
    });
    expect(
      reportConfidence({
        sampleSize: 20,
        enrichedVideos: 20,
        observedVideos: 20,
        failedEnrichments: 0,
        channels: 10,
        channelsWithoutBaseline: 0,
      }),
    ).toMatchObject({ score: 100, level: 'high' });
    expect(
      reportConfidence({
        sampleSize: 20,
        enrichedVideos: 17,
        observedVideos: 0,
        failedEnrichments: 3,
        channels: 10,
        channelsWithoutBaseline: 0,
      }),
    ).toMatchObject({ score: 40, level: 'low' });
  });
});

describe('the diversified sample', () => {
  const result = (id: string, channel: string, publishedTimeText: string): SearchVideo => ({
    id,
    title: id,
    channel: { id: channel, name: channel, url: '' },
    viewCount: 1,
    publishedTimeText,
    durationSeconds: 60,
    thumbnails: [],
  });

  it('deduplicates, caps each channel at 2 and reserves 30 % of the slots for recent uploads', () => {
    const relevance = ['v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7', 'v8', 'v9', 'v10'].map((id, i) =>
      result(id, `ch${i % 3}`, '2 months ago'),
    );
    const second = [
      result('v1', 'ch0', '2 months ago'),
      result('new1', 'ch9', '2 days ago'),
      result('new2', 'ch8', '5 hours ago'),
      result('new3', 'ch7', '6 days ago'),
    ];
    const sample = diversifiedSample([relevance, second], 10);
    expect(sample.candidates).toHaveLength(13);
    expect(sample.recentCandidates).toBe(3);
    // ceil(10 × 0.3) = 3 recent slots, then the best-ranked rest, two per channel: ch0–ch2 give
    // two each (v1–v6), so the sample stops at 9 of 10.
    expect(sample.chosen.map((c) => c.video.id)).toEqual(['v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'new1', 'new2', 'new3']);
    expect(sample.recentChosen).toBe(3);
    expect(sample.chosen.map((c) => c.searchRank)).toEqual([1, 2, 3, 4, 5, 6, 11, 12, 13]);
  });

  it('reads ages from display text', () => {
    expect(['5 hours ago', 'Streamed 2 weeks ago', '1 year ago', 'yesterday'].map(hoursFromRelativeText)).toEqual([5, 336, 8766, null]);
  });
});
