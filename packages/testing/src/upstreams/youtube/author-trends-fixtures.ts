/**
 * Authors the "cold brew" topic the trends tests and bench run on: nobody recorded a topic's search
 * pages together with every result's player and channel, so the whole topic is written here, in
 * the shapes the recorded pages use (videoRenderer, the ANDROID player, the masked WEB player,
 * /next's comment count, a channel's Videos tab). Dates are relative to `trendsFixtureNow`, the
 * instant the tests fix the trends clock at. Re-run after changing it:
 * `npx tsx packages/testing/src/upstreams/youtube/author-trends-fixtures.ts`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { projectDir } from './fixture-dirs';

type Json = Record<string, unknown>;

export const trendsFixtureTopic = 'cold brew';
export const trendsFixtureNow = '2026-01-20T12:00:00.000Z';
const trendsSecondPageToken = 'vrs-authored:trends:cold-brew:page-2';

export interface TopicVideo {
  id: string;
  title: string;
  channel: number;
  /** Hours before trendsFixtureNow. */
  ageHours: number;
  durationSeconds: number;
  views: number;
  likes: number;
  comments: number;
  hashtags: string[];
}

const coldBrewChannels = [
  'Brew Lab',
  'Coffee Corner',
  'Bean Theory',
  'Daily Grind',
  'Iced & Slow',
  'Home Barista',
  'Cafe Science',
  'Roast Notes',
].map((name, i) => ({
  id: `UCvrsTrendsChannel0000${String(i + 1).padStart(2, '0')}`,
  name,
}));

const v = (
  n: number,
  title: string,
  channel: number,
  ageHours: number,
  durationSeconds: number,
  views: number,
  likes: number,
  comments: number,
  hashtags: string[],
): TopicVideo => ({
  id: `coldBrew${String(n).padStart(3, '0')}`,
  title,
  channel,
  ageHours,
  durationSeconds,
  views,
  likes,
  comments,
  hashtags,
});

/** First page (relevance) then the second page; Brew Lab has four results, so the cap of 2 bites. */
const coldBrewVideos: TopicVideo[] = [
  v(1, 'How to make cold brew in 5 minutes', 0, 24, 45, 48_000, 2_400, 240, ['#coldbrew', '#coffee']),
  v(2, 'Cold brew vs iced coffee: which is better?', 1, 72, 600, 108_000, 3_240, 360, ['#coldbrew']),
  v(3, '7 cold brew mistakes (and how to fix them)', 2, 10, 480, 5_000, 400, 100, ['#coldbrew', '#recipe']),
  v(4, 'The ultimate cold brew guide for beginners, with every ratio and grind size [2026]', 3, 336, 1_800, 168_000, 1_680, 168, [
    '#coffee',
  ]),
  v(5, 'Cold brew concentrate at home', 0, 720, 540, 90_000, 2_700, 150, ['#coldbrew']),
  v(6, 'Why is my cold brew bitter?', 4, 1_440, 300, 40_000, 800, 90, ['#coffee']),
  v(7, 'Cold brew in a mason jar', 0, 2_160, 50, 250_000, 9_000, 400, ['#shorts', '#coldbrew']),
  v(8, 'Top 5 cold brew makers tested (2026)', 5, 240, 900, 60_000, 1_800, 210, ['#review', '#coldbrew']),
  v(9, 'Nitro cold brew without a keg', 6, 4_320, 720, 30_000, 600, 45, ['#nitro']),
  v(10, 'Cold brew tonic, the summer drink', 7, 8_760, 40, 500_000, 20_000, 900, ['#shorts']),
  v(11, 'Cold brew science: extraction explained', 0, 480, 1_500, 20_000, 1_000, 120, ['#coffee']),
  v(12, 'Sweet cream cold foam in 60 seconds', 1, 1_000, 60, 80_000, 4_000, 150, ['#shorts', '#coldbrew']),
  v(13, 'I drank cold brew for 30 days', 2, 48, 660, 24_000, 1_200, 300, ['#coldbrew']),
  v(14, 'Cold brew ratio calculator explained', 3, 96, 420, 9_600, 300, 40, ['#coffee', '#recipe']),
  v(15, 'Japanese iced coffee vs cold brew?', 4, 30, 780, 12_000, 700, 90, ['#coffee']),
  v(16, 'Cold brew on a budget', 5, 1_200, 360, 15_000, 300, 30, ['#coldbrew']),
  v(17, 'Cold brew latte art', 6, 20, 35, 8_000, 900, 60, ['#shorts']),
  v(18, 'How to clean a cold brew maker', 7, 2_000, 240, 5_000, 100, 12, ['#coffee']),
  v(19, 'Decaf cold brew taste test', 5, 150, 510, 7_500, 250, 35, ['#coldbrew']),
  v(20, 'Cold brew with oat milk (vegan)', 6, 60, 200, 6_000, 420, 44, ['#coldbrew', '#vegan']),
];

/** A topic written in the recorded pages' shapes: its videos, their channels, and its words. */
export interface AuthoredTopic {
  topic: string;
  /** What every description says the videos are about. */
  about: string;
  /** The player's `keywords` of every video. */
  keywords: string[];
  channels: { id: string; name: string }[];
  videos: TopicVideo[];
  /** Results on the first relevance page; the rest are on the second. */
  firstPageSize: number;
  secondPageToken: string;
  /** Starts the ids of each channel's three older uploads (padded to 11 characters). */
  olderUploadPrefix: string;
}

const coldBrew: AuthoredTopic = {
  topic: trendsFixtureTopic,
  about: 'cold brew coffee',
  keywords: ['cold brew', 'coffee'],
  channels: coldBrewChannels,
  videos: coldBrewVideos,
  firstPageSize: 12,
  secondPageToken: trendsSecondPageToken,
  olderUploadPrefix: 'oldUpload',
};

const now = Date.parse(trendsFixtureNow);
const isoBefore = (hours: number) => new Date(now - hours * 3_600_000).toISOString().replace('.000Z', '+00:00');

/** YouTube's display age, as the search page and the Videos tab print it. */
function ageText(hours: number): string {
  const units: [string, number][] = [
    ['year', 8_766],
    ['month', 730],
    ['week', 168],
    ['day', 24],
    ['hour', 1],
  ];
  const [unit, size] = units.find(([, size]) => hours >= size) ?? ['hour', 1];
  const count = Math.max(1, Math.floor(hours / size));
  return `${count} ${unit}${count === 1 ? '' : 's'} ago`;
}

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
const thumbnails = (id: string) => ({ thumbnails: [{ url: `https://i.ytimg.com/vi/${id}/hqdefault.jpg`, width: 480, height: 360 }] });
const ownerRuns = (channel: { id: string; name: string }) => ({
  runs: [
    { text: channel.name, navigationEndpoint: { browseEndpoint: { browseId: channel.id, canonicalBaseUrl: `/channel/${channel.id}` } } },
  ],
});
const description = (t: AuthoredTopic, video: TopicVideo) => `${video.title}. Everything about ${t.about}.\n\n${video.hashtags.join(' ')}`;

export function videoRenderer(video: Omit<TopicVideo, 'channel'> & { channel: { id: string; name: string } }): Json {
  return {
    videoRenderer: {
      videoId: video.id,
      thumbnail: thumbnails(video.id),
      title: { runs: [{ text: video.title }] },
      longBylineText: ownerRuns(video.channel),
      ownerText: ownerRuns(video.channel),
      shortBylineText: ownerRuns(video.channel),
      publishedTimeText: { simpleText: ageText(video.ageHours) },
      lengthText: { simpleText: clock(video.durationSeconds) },
      viewCountText: { simpleText: `${video.views.toLocaleString('en-US')} views` },
      navigationEndpoint: { watchEndpoint: { videoId: video.id } },
    },
  };
}

const withChannel = (t: AuthoredTopic) => (video: TopicVideo) => ({ ...video, channel: t.channels[video.channel]! });
const recordedAt = trendsFixtureNow.replace('.000Z', 'Z');
const web = (url: string, body: Json, responseBody: Json, note?: string) => ({
  ...(note ? { note } : {}),
  request: { method: 'POST', url, clientName: 'WEB', body },
  response: { status: 200, recordedAt, body: responseBody },
});

function searchPages(t: AuthoredTopic): Json[] {
  const url = 'https://www.youtube.com/youtubei/v1/search?prettyPrint=false';
  const first = t.videos.slice(0, t.firstPageSize).map((video) => videoRenderer(withChannel(t)(video)));
  const second = t.videos.slice(t.firstPageSize).map((video) => videoRenderer(withChannel(t)(video)));
  const continuation = {
    continuationItemRenderer: {
      continuationEndpoint: { continuationCommand: { token: t.secondPageToken, request: 'CONTINUATION_REQUEST_TYPE_SEARCH' } },
    },
  };
  return [
    web(
      url,
      { query: t.topic, params: 'EgIQAfABAQ%3D%3D' },
      {
        estimatedResults: '1200',
        contents: {
          twoColumnSearchResultsRenderer: {
            primaryContents: { sectionListRenderer: { contents: [{ itemSectionRenderer: { contents: first } }, continuation] } },
          },
        },
      },
      'search, first page (type=video)',
    ),
    web(
      url,
      { continuation: t.secondPageToken },
      {
        estimatedResults: '1200',
        onResponseReceivedCommands: [
          { appendContinuationItemsAction: { continuationItems: [{ itemSectionRenderer: { contents: second } }] } },
        ],
      },
      'search, second page',
    ),
    ...sortedSearchPages(t, url),
  ];
}

/**
 * The topic's other orders, one page each of the same renderers: the `params` the client sends
 * for them (youtubei.js 18.1's search filter protobuf: order 2 or 3, type=video).
 */
export const trendsSortedSearches = [
  { sort: 'upload_date', params: 'CAISAhAB', order: (a: TopicVideo, b: TopicVideo) => a.ageHours - b.ageHours },
  { sort: 'view_count', params: 'CAMSAhAB', order: (a: TopicVideo, b: TopicVideo) => b.views - a.views },
] as const;

function sortedSearchPages(t: AuthoredTopic, url: string): Json[] {
  return trendsSortedSearches.map(({ sort, params, order }) => {
    const contents = [...t.videos].sort(order).map((video) => videoRenderer(withChannel(t)(video)));
    return web(
      url,
      { query: t.topic, params },
      {
        estimatedResults: '1200',
        contents: {
          twoColumnSearchResultsRenderer: {
            primaryContents: { sectionListRenderer: { contents: [{ itemSectionRenderer: { contents } }] } },
          },
        },
      },
      `search sorted by ${sort.replace('_', ' ')} (type=video), one page`,
    );
  });
}

function videoExchanges(t: AuthoredTopic, video: TopicVideo): Json[] {
  const channel = t.channels[video.channel]!;
  const publishDate = isoBefore(video.ageHours);
  const microformat = {
    playerMicroformatRenderer: {
      thumbnail: thumbnails(video.id),
      title: { simpleText: video.title },
      description: { simpleText: description(t, video) },
      lengthSeconds: String(video.durationSeconds),
      externalChannelId: channel.id,
      ownerChannelName: channel.name,
      viewCount: String(video.views),
      publishDate,
      uploadDate: publishDate,
      likeCount: String(video.likes),
      category: 'Howto & Style',
    },
  };
  return [
    {
      note: 'ANDROID player',
      request: {
        method: 'POST',
        url: 'https://youtubei.googleapis.com/youtubei/v1/reel/reel_item_watch?prettyPrint=false&$fields=playerResponse',
        clientName: 'ANDROID',
        body: { playerRequest: { videoId: video.id, contentCheckOk: true, racyCheckOk: true }, disablePlayerResponse: false },
      },
      response: {
        status: 200,
        recordedAt,
        body: {
          playerResponse: {
            playabilityStatus: { status: 'OK', playableInEmbed: true },
            videoDetails: {
              videoId: video.id,
              title: video.title,
              lengthSeconds: String(video.durationSeconds),
              keywords: t.keywords,
              channelId: channel.id,
              shortDescription: description(t, video),
              thumbnail: thumbnails(video.id),
              viewCount: String(video.views),
              author: channel.name,
              isPrivate: false,
              isLiveContent: false,
            },
            microformat,
          },
        },
      },
    },
    web(
      'https://www.youtube.com/youtubei/v1/player?prettyPrint=false&$fields=microformat,videoDetails.thumbnail.thumbnails,videoDetails.videoId',
      { videoId: video.id, contentCheckOk: true, racyCheckOk: true },
      { videoDetails: { videoId: video.id, thumbnail: thumbnails(video.id) }, microformat },
      'WEB player masked to microformat (publish date, like count)',
    ),
    web(
      'https://www.youtube.com/youtubei/v1/next?prettyPrint=false',
      { videoId: video.id, contentCheckOk: true, racyCheckOk: true },
      {
        engagementPanels: [
          {
            engagementPanelSectionListRenderer: {
              panelIdentifier: 'engagement-panel-comments-section',
              header: {
                engagementPanelTitleHeaderRenderer: {
                  title: { runs: [{ text: 'Comments' }] },
                  contextualInfo: { runs: [{ text: String(video.comments) }] },
                },
              },
              content: { sectionListRenderer: { contents: [] } },
            },
          },
        ],
      },
      '/next reduced to the comment count',
    ),
  ];
}

/** Each channel's Videos tab: its topic videos plus three older uploads that set its baseline. */
function channelExchanges(t: AuthoredTopic, index: number): Json {
  const channel = t.channels[index]!;
  const own = t.videos.filter((video) => video.channel === index).map(withChannel(t));
  const older = [1, 2, 3].map((k) => ({
    id: `${t.olderUploadPrefix}${index}${k}`.padEnd(11, 'x'),
    title: `${channel.name} upload ${k}`,
    channel,
    ageHours: 200 * k * (index + 1),
    durationSeconds: 400,
    views: 20_000 * k * (index + 1),
    likes: 0,
    comments: 0,
    hashtags: [],
  }));
  const items = [...own, ...older]
    .sort((a, b) => a.ageHours - b.ageHours)
    .map((video) => ({ richItemRenderer: { content: videoRenderer(video) } }));
  return web(
    'https://www.youtube.com/youtubei/v1/browse?prettyPrint=false',
    { browseId: channel.id, params: 'EgZ2aWRlb3PyBgQKAjoA' },
    {
      contents: {
        twoColumnBrowseResultsRenderer: {
          tabs: [{ tabRenderer: { title: 'Videos', selected: true, content: { richGridRenderer: { contents: items } } } }],
        },
      },
      metadata: {
        channelMetadataRenderer: {
          title: channel.name,
          description: '',
          externalId: channel.id,
          vanityChannelUrl: `http://www.youtube.com/channel/${channel.id}`,
        },
      },
    },
    `${channel.name}'s Videos tab`,
  );
}

/**
 * Every exchange of a topic: two search pages by relevance, one by upload date, one by view count,
 * each video's ANDROID player, masked WEB player and /next comment count, each channel's Videos tab.
 */
export function topicExchanges(t: AuthoredTopic): Json[] {
  return [
    ...searchPages(t),
    ...t.videos.flatMap((video) => videoExchanges(t, video)),
    ...t.channels.map((_, index) => channelExchanges(t, index)),
  ];
}

function main(): void {
  const file = path.join(projectDir, 'trends', 'cold-brew.json');
  mkdirSync(path.dirname(file), { recursive: true });
  const exchanges = topicExchanges(coldBrew);
  const note =
    `AUTHORED by this project, not recorded: the topic "${trendsFixtureTopic}" for the trends tests and bench — two search pages by relevance, one by upload date, one by view count, ` +
    `${coldBrewVideos.length} videos (ANDROID player, masked WEB player, /next comment count) and ${coldBrewChannels.length} channels' Videos tabs, ` +
    `dates relative to ${trendsFixtureNow}. Generated by packages/testing/src/upstreams/youtube/author-trends-fixtures.ts.`;
  writeFileSync(file, `${JSON.stringify({ format: 'vrs-youtube-exchanges', note, exchanges }, null, 1)}\n`);
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
