/**
 * Authors the pages the monitoring tests watch change: a search, a channel's Videos and Playlists tabs and a video,
 * each with a `variant` — the same request answered later with something new — that a test
 * switches on (`useVariant`) between two checks. Monitoring's own ids and query, so switching them
 * never moves a page another suite reads. Re-run after changing it:
 * `npx tsx packages/testing/src/upstreams/youtube/author-monitoring-fixtures.ts`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { topicExchanges, videoRenderer, type AuthoredTopic, type TopicVideo } from './author-trends-fixtures';
import { projectDir } from './fixture-dirs';

type Json = Record<string, unknown>;

export const monitoringFixtureQuery = 'vrs monitoring fixture';
export const monitoringFixtureChannel = { id: 'UCvrsMonitoringChannel01', name: 'Monitoring Fixture Channel' };
export const monitoringFixtureVideo = { id: 'vrsMonVid01', title: 'A video the monitoring tests watch', views: 10_000, comments: 40 };
/**
 * Variants: the search gains two videos, the channel one upload or one playlist, the video 60
 * comments or one newest comment, the topic one breakout video.
 */
export const monitoringVariants = {
  searchLater: 'monitoring-search-later',
  channelLater: 'monitoring-channel-later',
  channelPlaylistLater: 'monitoring-channel-playlist-later',
  videoComments: 'monitoring-video-comments',
  videoNewComment: 'monitoring-video-new-comment',
  topicBreakout: 'monitoring-topic-breakout',
} as const;
export const monitoringSearchNewIds = ['vrsMonSrch4', 'vrsMonSrch5'];
export const monitoringChannelNewId = 'vrsMonUpld4';
export const monitoringVideoLaterComments = 100;
export const monitoringPlaylistIds = ['PLvrsMonitoringList1', 'PLvrsMonitoringList2'];
export const monitoringPlaylistNew = { id: 'PLvrsMonitoringList3', title: 'Monitoring fixture: a new playlist' };

export const monitoringFixtureTopic = 'vrs monitoring topic';

const topicVideo = (n: number, channel: number, ageHours: number, views: number, likes: number): TopicVideo => ({
  id: `vrsMonTop${String(n).padStart(2, '0')}`,
  title: `Monitoring topic video ${n}`,
  channel,
  ageHours,
  durationSeconds: 600,
  views,
  likes,
  comments: Math.round(likes / 10),
  hashtags: ['#vrsmonitoring'],
});
/**
 * Eight videos whose signals pull against each other — the fastest are the oldest and the least
 * engaging — so none scores near the Breakout band (80), whatever the trends clock reads.
 */
const topicBase = [
  topicVideo(1, 0, 600, 300_000, 3_000),
  topicVideo(2, 0, 400, 160_000, 2_400),
  topicVideo(3, 1, 300, 90_000, 1_800),
  topicVideo(4, 1, 200, 40_000, 1_000),
  topicVideo(5, 2, 150, 22_500, 675),
  topicVideo(6, 2, 100, 10_000, 350),
  topicVideo(7, 3, 80, 4_000, 160),
  topicVideo(8, 3, 60, 1_800, 81),
];
/** The later topic's newcomer: the youngest, the most viewed, the most engaging, on a channel of its own — Breakout. */
export const monitoringTopicBreakoutId = 'vrsMonTop09';
const topicBreakout = topicVideo(9, 4, 3, 400_000, 40_000);
const topicChannels = [1, 2, 3, 4, 5].map((n) => ({ id: `UCvrsMonTopicChannel000${n}`, name: `Monitoring Topic Channel ${n}` }));
const authoredTopic = (videos: TopicVideo[], channels: number): AuthoredTopic => ({
  topic: monitoringFixtureTopic,
  about: 'the monitoring topic',
  keywords: [monitoringFixtureTopic],
  channels: topicChannels.slice(0, channels),
  videos,
  firstPageSize: 6,
  secondPageToken: 'vrs-authored:monitoring:topic:page-2',
  olderUploadPrefix: 'vrsMonOld',
});

const recordedAt = '2026-01-20T12:00:00Z';
const searchUrl = 'https://www.youtube.com/youtubei/v1/search?prettyPrint=false';
const browseUrl = 'https://www.youtube.com/youtubei/v1/browse?prettyPrint=false';
/** youtubei.js 18.1's search filter for newest uploads first, type=video. */
const uploadDateParams = 'CAISAhAB';
const videosTabParams = 'EgZ2aWRlb3PyBgQKAjoA';
const playlistsTabParams = 'EglwbGF5bGlzdHPyBgQKAkIA';

const web = (url: string, body: Json, responseBody: Json, note: string, variant?: string) => ({
  note,
  ...(variant ? { variant } : {}),
  request: { method: 'POST', url, clientName: 'WEB', body },
  response: { status: 200, recordedAt, body: responseBody },
});

const item = (id: string, title: string, ageHours: number) =>
  videoRenderer({
    id,
    title,
    channel: monitoringFixtureChannel,
    ageHours,
    durationSeconds: 300,
    views: 1_000,
    likes: 0,
    comments: 0,
    hashtags: [],
  });

const searchBase = [
  item('vrsMonSrch1', 'Monitoring fixture: first', 30),
  item('vrsMonSrch2', 'Monitoring fixture: second', 50),
  item('vrsMonSrch3', 'Monitoring fixture: third', 70),
];
const searchNew = [item('vrsMonSrch5', 'Monitoring fixture: newest', 1), item('vrsMonSrch4', 'Monitoring fixture: new', 2)];

function searchPage(contents: Json[], note: string, variant?: string) {
  return web(
    searchUrl,
    { query: monitoringFixtureQuery, params: uploadDateParams },
    {
      estimatedResults: String(contents.length),
      contents: {
        twoColumnSearchResultsRenderer: { primaryContents: { sectionListRenderer: { contents: [{ itemSectionRenderer: { contents } }] } } },
      },
    },
    note,
    variant,
  );
}

const uploadsBase = [
  item('vrsMonUpld1', 'Upload one', 100),
  item('vrsMonUpld2', 'Upload two', 200),
  item('vrsMonUpld3', 'Upload three', 300),
];

function videosTab(uploads: Json[], note: string, variant?: string) {
  return web(
    browseUrl,
    { browseId: monitoringFixtureChannel.id, params: videosTabParams },
    {
      contents: {
        twoColumnBrowseResultsRenderer: {
          tabs: [
            {
              tabRenderer: {
                title: 'Videos',
                selected: true,
                content: { richGridRenderer: { contents: uploads.map((content) => ({ richItemRenderer: { content } })) } },
              },
            },
          ],
        },
      },
      metadata: {
        channelMetadataRenderer: {
          title: monitoringFixtureChannel.name,
          description: '',
          externalId: monitoringFixtureChannel.id,
          vanityChannelUrl: `http://www.youtube.com/channel/${monitoringFixtureChannel.id}`,
        },
      },
    },
    note,
    variant,
  );
}

/** A 2026 playlist card (lockupViewModel), reduced to what the provider reads. */
const playlistLockup = (id: string, title: string, videos: number) => ({
  lockupViewModel: {
    contentId: id,
    contentType: 'LOCKUP_CONTENT_TYPE_PLAYLIST',
    contentImage: {
      collectionThumbnailViewModel: {
        primaryThumbnail: {
          thumbnailViewModel: {
            image: { sources: [{ url: `https://i.ytimg.com/vi/vrsMonUpld1/hqdefault.jpg?list=${id}`, width: 480, height: 270 }] },
            overlays: [
              { thumbnailOverlayBadgeViewModel: { thumbnailBadges: [{ thumbnailBadgeViewModel: { text: `${videos} videos` } }] } },
            ],
          },
        },
      },
    },
    metadata: { lockupMetadataViewModel: { title: { content: title } } },
  },
});

const playlistsBase = [
  playlistLockup('PLvrsMonitoringList1', 'Monitoring fixture: list one', 3),
  playlistLockup('PLvrsMonitoringList2', 'Monitoring fixture: list two', 2),
];

function playlistsTab(playlists: Json[], note: string, variant?: string) {
  return web(
    browseUrl,
    { browseId: monitoringFixtureChannel.id, params: playlistsTabParams },
    {
      contents: {
        twoColumnBrowseResultsRenderer: {
          tabs: [
            {
              tabRenderer: {
                title: 'Playlists',
                selected: true,
                content: {
                  sectionListRenderer: { contents: [{ itemSectionRenderer: { contents: [{ gridRenderer: { items: playlists } }] } }] },
                },
              },
            },
          ],
        },
      },
    },
    note,
    variant,
  );
}

/**
 * Newest-first comment threads of the monitoring video, taken from the authored newest page of
 * xaQJbozY_Is (recorded threads and entity mutations; header with "Newest" selected, so one page
 * answers): the base page holds threads 3–5 of that page, the later page thread 2 on top of them.
 * The continuation to page 2 is dropped, so the page ends the collection.
 */
/** The continuation the video's /next names for its comments (tests fail that read alone with a fault on it). */
export const monitoringCommentsToken = `vrs-authored:${monitoringFixtureVideo.id}:comments`;
const sourceNewestPage = () =>
  (
    JSON.parse(readFileSync(path.join(projectDir, 'comments', 'xaQJbozY_Is.newest.json'), 'utf8')) as {
      exchanges: { response: { body: Json } }[];
    }
  ).exchanges[0]!.response.body;
const threadId = (thread: Json) =>
  ((thread.commentThreadRenderer as Json).commentViewModel as { commentViewModel: { commentId: string } }).commentViewModel.commentId;

export function monitoringNewComment(): { id: string } {
  return { id: threadId(newestThreads()[1]!) };
}

function newestThreads(): Json[] {
  const [, body] = sourceNewestPage().onResponseReceivedEndpoints as { reloadContinuationItemsCommand: { continuationItems: Json[] } }[];
  return body!.reloadContinuationItemsCommand.continuationItems.filter((item) => 'commentThreadRenderer' in item);
}

/** Only the entities the kept threads name (their comment, toolbar and shared keys): the page stays small. */
function mutationsOf(source: Json, threads: Json[]): Json[] {
  const named = JSON.stringify(threads);
  const { mutations } = (source.frameworkUpdates as { entityBatchUpdate: { mutations: { entityKey: string }[] } }).entityBatchUpdate;
  return mutations.filter((mutation) => named.includes(`"${mutation.entityKey}"`));
}

function commentsPage(threads: Json[], note: string, variant?: string) {
  const source = sourceNewestPage();
  const [header, body] = structuredClone(source.onResponseReceivedEndpoints) as {
    reloadContinuationItemsCommand: { continuationItems: Json[] };
  }[];
  // The header reduced to its count and sort menu (the recorded one carries ~110 kB of emoji pickers).
  const items = header!.reloadContinuationItemsCommand.continuationItems;
  const { sortMenu, titleText } = items[0]!.commentsHeaderRenderer as Json;
  const count = { runs: [{ text: String(threads.length) }] };
  items[0] = {
    commentsHeaderRenderer: { countText: { runs: [...count.runs, { text: ' Comments' }] }, commentsCount: count, sortMenu, titleText },
  };
  body!.reloadContinuationItemsCommand.continuationItems = threads;
  return web(
    'https://www.youtube.com/youtubei/v1/next?prettyPrint=false',
    { continuation: monitoringCommentsToken },
    { onResponseReceivedEndpoints: [header, body], frameworkUpdates: { entityBatchUpdate: { mutations: mutationsOf(source, threads) } } },
    note,
    variant,
  );
}

function videoExchanges(): Json[] {
  const { id, title, views } = monitoringFixtureVideo;
  const thumbnails = { thumbnails: [{ url: `https://i.ytimg.com/vi/${id}/hqdefault.jpg`, width: 480, height: 360 }] };
  const microformat = {
    playerMicroformatRenderer: {
      thumbnail: thumbnails,
      title: { simpleText: title },
      description: { simpleText: title },
      lengthSeconds: '300',
      externalChannelId: monitoringFixtureChannel.id,
      ownerChannelName: monitoringFixtureChannel.name,
      viewCount: String(views),
      publishDate: '2026-01-10T12:00:00+00:00',
      uploadDate: '2026-01-10T12:00:00+00:00',
      likeCount: '100',
      category: 'Education',
    },
  };
  const next = (comments: number, note: string, variant?: string) =>
    web(
      'https://www.youtube.com/youtubei/v1/next?prettyPrint=false',
      { videoId: id, contentCheckOk: true, racyCheckOk: true },
      {
        engagementPanels: [
          {
            engagementPanelSectionListRenderer: {
              panelIdentifier: 'engagement-panel-comments-section',
              header: {
                engagementPanelTitleHeaderRenderer: {
                  title: { runs: [{ text: 'Comments' }] },
                  contextualInfo: { runs: [{ text: String(comments) }] },
                },
              },
              content: { sectionListRenderer: { contents: [] } },
            },
          },
        ],
        contents: {
          twoColumnWatchNextResults: {
            results: {
              results: {
                contents: [
                  {
                    itemSectionRenderer: {
                      targetId: 'comments-section',
                      sectionIdentifier: 'comment-item-section',
                      contents: [
                        {
                          continuationItemRenderer: {
                            trigger: 'CONTINUATION_TRIGGER_ON_ITEM_SHOWN',
                            continuationEndpoint: {
                              continuationCommand: { token: monitoringCommentsToken, request: 'CONTINUATION_REQUEST_TYPE_WATCH_NEXT' },
                            },
                          },
                        },
                      ],
                    },
                  },
                ],
              },
            },
          },
        },
      },
      note,
      variant,
    );
  return [
    {
      note: 'ANDROID player (views move with POST /__control/counts)',
      request: {
        method: 'POST',
        url: 'https://youtubei.googleapis.com/youtubei/v1/reel/reel_item_watch?prettyPrint=false&$fields=playerResponse',
        clientName: 'ANDROID',
        body: { playerRequest: { videoId: id, contentCheckOk: true, racyCheckOk: true }, disablePlayerResponse: false },
      },
      response: {
        status: 200,
        recordedAt,
        body: {
          playerResponse: {
            playabilityStatus: { status: 'OK', playableInEmbed: true },
            videoDetails: {
              videoId: id,
              title,
              lengthSeconds: '300',
              keywords: [],
              channelId: monitoringFixtureChannel.id,
              shortDescription: title,
              thumbnail: thumbnails,
              viewCount: String(views),
              author: monitoringFixtureChannel.name,
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
      { videoId: id, contentCheckOk: true, racyCheckOk: true },
      { videoDetails: { videoId: id, thumbnail: thumbnails }, microformat },
      'WEB player masked to microformat',
    ),
    next(monitoringFixtureVideo.comments, '/next reduced to the comment count'),
    next(monitoringVideoLaterComments, '/next later: 60 more comments', monitoringVariants.videoComments),
    commentsPage(newestThreads().slice(2, 5), 'newest comments: three threads'),
    commentsPage(newestThreads().slice(1, 5), 'newest comments later: one new thread on top', monitoringVariants.videoNewComment),
  ];
}

function main(): void {
  const file = path.join(projectDir, 'monitoring', 'monitoring.json');
  const topicBaseExchanges = topicExchanges(authoredTopic(topicBase, 4));
  const topicBaseKeys = new Set(topicBaseExchanges.map((exchange) => JSON.stringify(exchange)));
  mkdirSync(path.dirname(file), { recursive: true });
  const exchanges = [
    searchPage(searchBase, 'search, newest first: three videos'),
    searchPage([...searchNew, ...searchBase], 'search later: two new videos on top', monitoringVariants.searchLater),
    videosTab(uploadsBase, 'Videos tab: three uploads'),
    videosTab(
      [item(monitoringChannelNewId, 'Upload four', 1), ...uploadsBase],
      'Videos tab later: one new upload',
      monitoringVariants.channelLater,
    ),
    playlistsTab(playlistsBase, 'Playlists tab: two playlists'),
    playlistsTab(
      [playlistLockup(monitoringPlaylistNew.id, monitoringPlaylistNew.title, 1), ...playlistsBase],
      'Playlists tab later: one new playlist',
      monitoringVariants.channelPlaylistLater,
    ),
    ...videoExchanges(),
    ...topicBaseExchanges,
    // Only what the newcomer changes (its searches, video and channel) is a variant; the rest is as before.
    ...topicExchanges(authoredTopic([topicBreakout, ...topicBase], 5))
      .filter((exchange) => !topicBaseKeys.has(JSON.stringify(exchange)))
      .map((exchange) => ({ variant: monitoringVariants.topicBreakout, ...exchange })),
  ];
  const note =
    'AUTHORED by this project, not recorded: a search, a channel (Videos and Playlists tabs), a video and a topic (its searches, videos and channels) for the monitoring tests, each with a variant (a later answer) ' +
    'a test switches on with POST /__control/variant. Generated by packages/testing/src/upstreams/youtube/author-monitoring-fixtures.ts.';
  writeFileSync(file, `${JSON.stringify({ format: 'vrs-youtube-exchanges', note, exchanges }, null, 1)}\n`);
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
