import type { Video } from '@vrs/contracts';
import type { EnrichedVideo } from './score-sample';

/**
 * The worked example of docs/methodology/trends-3.0.md, as data: four videos of "cold brew" seen
 * at 2026-01-20T12:00:00Z. The unit tests check every formula against the figures the document
 * computes by hand from it.
 */
export const exampleNow = '2026-01-20T12:00:00.000Z';

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

export const exampleVideos: EnrichedVideo[] = [
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
export const exampleChannelUploads = [
  { viewCount: 24_000, publishedTimeText: '1 day ago' },
  { viewCount: 1_500, publishedTimeText: '3 hours ago' },
  { viewCount: 336_000, publishedTimeText: '2 weeks ago' },
];
