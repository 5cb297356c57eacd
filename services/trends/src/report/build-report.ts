import pLimit from 'p-limit';
import type { z } from 'zod';
import {
  type generateTrendReportInputSchema,
  trendsMethodologyVersion,
  trendsReportGenerated,
  type SearchVideo,
  type TrendReport,
  type Video,
} from '@vrs/contracts';
import type { TrendsDeps } from '../trends-deps';
import { reportConfidence } from '../methodology/confidence';
import { diversifiedSample, recencyWindowDays, type Candidate } from '../methodology/sample';
import { scoreSample, type EnrichedVideo } from '../methodology/score-sample';
import { channelBaselineViewsPerHour, hoursBetween } from '../methodology/signals';
import { generateInsights } from './insights';
import { newId, type RequestContext } from '@vrs/kit';

/** One sentence per formula of docs/methodology/trends-3.0.md, as the report's `methodology` field. */
export const methodologySummary = [
  `Methodology ${trendsMethodologyVersion}.`,
  'Sample: three searches of the topic run side by side (relevance, two pages; upload date; view count), deduplicated, at most 2 videos per channel, 30% of the slots reserved for uploads of the last 7 days, each video enriched with exact counts.',
  'Velocity: views / age in hours (age at least 1 h); with an earlier snapshot (at least 15 min old, within 30 days) observed velocity = view delta / hours between snapshots, and acceleration = (observed − previous) / previous × 100, previous being the rate between the two earlier snapshots or the lifetime rate at the earlier one.',
  "Channel baseline: median views/hour of the channel's recent uploads; lift = effective views/hour / baseline (1 without a baseline). Engagement = (likes + comments) / views.",
  'Percentiles are mid-rank within the sample; trend score = 0.35 velocity + 0.15 freshness + 0.20 channel performance + 0.15 engagement + 0.15 acceleration; bands Breakout ≥ 80, Rising ≥ 60, Steady ≥ 40, else Cooling.',
  'A video whose enrichment fails is scored from its search card (views, age text, channel, duration; signalSource search_card, engagement the sample median, 25 confidence points less) rather than dropped.',
  'Confidence starts at 100 and loses points for a small sample, missing history, failed enrichment, videos scored from search cards and missing channel baselines (high ≥ 75, medium ≥ 50, else low).',
].join(' ');

/**
 * Two turns of the event loop: undici writes a request on a kept-alive socket one check phase after
 * it is made, so synchronous work that must not hold requests back waits for this (ADR 0046).
 */
const requestsOnTheWire = () =>
  new Promise<void>((resolve) => setImmediate(resolve)).then(() => new Promise<void>((resolve) => setImmediate(resolve)));
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The other orders of the topic's search, one page each; a failed one is left out with a warning. */
const otherSorts = [
  { sort: 'upload_date', label: 'upload-date' },
  { sort: 'view_count', label: 'view-count' },
] as const;

/**
 * The topic's searches, concurrently: relevance (two pages; the first is required), upload date and
 * view count, in that order (first rank wins). While page 2 is out, `whileSecondPageOut` gets the
 * searches without it, so enrichment can start for the sample they already make (ADR 0046).
 */
async function searchCandidates(
  { provider, logger }: TrendsDeps,
  q: string,
  warnings: string[],
  whileSecondPageOut: (searches: [firstPage: SearchVideo[], ...others: SearchVideo[][]]) => void,
): Promise<SearchVideo[][]> {
  /** A search that may fail: its videos, or none and a warning saying why. */
  const orWarning = (search: Promise<{ result: { videos: SearchVideo[] } }>, warning: (why: string) => string) =>
    search.then(
      ({ result }) => [result.videos],
      (error: unknown): SearchVideo[][] => {
        warnings.push(warning(messageOf(error)));
        return [];
      },
    );
  // Asked first, so its answer comes back and is handled first: page 2 waits for it.
  const firstPage = provider.videos.search.query({ q, sort: 'relevance' });
  const others = Promise.all(
    otherSorts.map(({ sort, label }) =>
      orWarning(
        provider.videos.search.query({ q, sort }),
        (why) => `The ${label} search failed (${why}); the sample draws on the other searches.`,
      ),
    ),
  ).then((results) => results.flat());
  const first = (await firstPage).result;
  if (!first.continuation) return [first.videos, ...(await others)];
  let secondPageIn = false;
  const second = orWarning(
    provider.videos.search.query({ q, sort: 'relevance', continuation: first.continuation }),
    (why) => `The second search page failed (${why}); the sample draws on the first page only.`,
  ).finally(() => {
    secondPageIn = true;
  });
  // The second page's request goes out before the early reads' work begins.
  void others
    .then(requestsOnTheWire)
    .then(async () => {
      if (!secondPageIn) whileSecondPageOut([first.videos, ...(await others)]);
    })
    .catch((err: unknown) => logger.warn({ err }, 'the early enrichment of a trend report failed to start; the report asks after page 2'));
  const [secondPage, rest] = await Promise.all([second, others]);
  return [first.videos, ...secondPage, ...rest];
}

type Enrichment = { video: Video } | { error: unknown };

/**
 * A report's provider reads, each started at most once: a video or channel asked for early (from
 * the sample before the second search page) is not asked again when the final sample holds it.
 */
function reportReads({ provider }: TrendsDeps, concurrency: number) {
  const limit = pLimit(concurrency);
  /** `read` of each key, started at most once. */
  const once = <T>(read: (key: string) => Promise<T>) => {
    const started = new Map<string, Promise<T>>();
    return (key: string) => {
      const promise = started.get(key) ?? read(key);
      started.set(key, promise);
      return promise;
    };
  };
  const video = once((videoId) =>
    limit(() => provider.videos.get.query({ videoId, refresh: true })).then(
      ({ result }): Enrichment => ({ video: result }),
      (error: unknown) => ({ error }),
    ),
  );
  const baseline = once((channel) =>
    limit(() => provider.channels.get.query({ channel })).then(
      ({ result }) => channelBaselineViewsPerHour(result.recentUploads),
      () => null,
    ),
  );
  return {
    video,
    baseline,
    /** Starts the reads of a sample's videos and their channels. */
    start(chosen: readonly Candidate[]) {
      for (const candidate of chosen) void video(candidate.video.id);
      for (const channel of channelsOf(chosen)) void baseline(channel);
    },
  };
}

const channelsOf = (chosen: readonly Candidate[]) => [...new Set(chosen.map((candidate) => candidate.video.channel.id).filter(Boolean))];

/**
 * A trend report (methodology 3.0): search, diversified sample, enrichment through the provider
 * (exact counts always fetched anew), channel baselines, earlier snapshots, scores and patterns;
 * then this report's snapshots are saved, and insights are added in `ai` mode.
 */
export async function buildTrendReport(
  deps: TrendsDeps,
  request: z.output<typeof generateTrendReportInputSchema>,
  context: RequestContext,
): Promise<TrendReport> {
  const { snapshots, clock, logger, announcer } = deps;
  const now = clock.now().toISOString();
  const warnings: string[] = [];
  const reads = reportReads(deps, deps.config.enrichConcurrency);
  // Early reads of the first page's videos (ADR 0046): page 2 ranks after them, so the final sample
  // nearly always keeps them.
  const searches = await searchCandidates(deps, request.q, warnings, (early) => {
    const firstPage = new Set(early[0].map((video) => video.id));
    reads.start(diversifiedSample(early, request.sampleSize).chosen.filter((candidate) => firstPage.has(candidate.video.id)));
  });
  const sample = diversifiedSample(searches, request.sampleSize);

  const channelIds = channelsOf(sample.chosen);
  const videoIds = sample.chosen.map((candidate) => candidate.video.id);
  const [videoResults, baselines, earlier] = await Promise.all([
    Promise.all(sample.chosen.map(async (candidate) => ({ candidate, ...(await reads.video(candidate.video.id)) }))),
    Promise.all(channelIds.map(async (channel) => [channel, await reads.baseline(channel)] as const)).then((entries) => new Map(entries)),
    // The embedded store answers synchronously: started at once, it held the reads' requests back.
    requestsOnTheWire().then(() => snapshots.earlier(videoIds, now)),
  ]);

  const enriched: EnrichedVideo[] = [];
  let failed = 0;
  let fromCards = 0;
  for (const outcome of videoResults) {
    const { candidate } = outcome;
    const id = candidate.video.id;
    const publishDate = 'error' in outcome ? null : outcome.video.publishDate;
    if (!('error' in outcome) && publishDate && hoursBetween(publishDate, now) >= 0) {
      enriched.push({
        video: outcome.video,
        publishDate,
        source: 'provider',
        searchRank: candidate.searchRank,
        publishedTimeText: candidate.video.publishedTimeText,
        earlier: earlier.get(id) ?? [],
        baselineViewsPerHour: baselines.get(outcome.video.channel.id) ?? null,
      });
      continue;
    }
    failed++;
    const why = 'error' in outcome ? `could not be enriched (${messageOf(outcome.error)})` : 'has no usable publish date';
    const card = fromSearchCard(candidate, now, baselines.get(candidate.video.channel.id) ?? null);
    if (!card) {
      warnings.push(`Video ${id} ${why}, and its search card gives no view count or age; left out of the sample.`);
      continue;
    }
    fromCards++;
    warnings.push(
      `Video ${id} ${why}; scored from its search card (views, age text, channel, duration): no likes or comments, age estimated, lower confidence.`,
    );
    enriched.push(card);
  }
  const channelsWithoutBaseline = [...baselines.values()].filter((baseline) => baseline === null).length;
  if (channelsWithoutBaseline > 0)
    warnings.push(
      `No channel baseline for ${channelsWithoutBaseline} of ${channelIds.length} channels (channel page unavailable or without dated uploads).`,
    );

  const scored = scoreSample(enriched, now, recencyWindowDays);
  const reportId = newId('trr');
  // Saved after the read above, so a report never measures against its own snapshot.
  // Only exact counts make history: a search card's are rounded and would fake a rate later.
  await snapshots.save(
    reportId,
    scored.videos
      .filter((video) => video.signalSource !== 'search_card')
      .map((video) => ({
        videoId: video.id,
        channelId: video.channel.id,
        views: video.viewCount,
        likes: video.likeCount,
        comments: video.commentCount,
        at: now,
      })),
  );
  const observedVideos = scored.videos.filter((video) => video.signalSource === 'observed').length;
  const recentVideos = scored.videos.filter(
    (video) => video.signalSource !== 'search_card' && video.ageHours <= recencyWindowDays * 24,
  ).length;

  let insights: TrendReport['insights'];
  if (request.mode === 'ai') {
    const outcome = await generateInsights(deps.llm, { query: request.q, ...scored }, logger, context.trace);
    insights = outcome.insights;
    warnings.push(...outcome.warnings);
  }

  const report: TrendReport = {
    provider: 'youtube',
    query: request.q,
    generatedAt: now,
    sampleSize: request.sampleSize,
    methodologyVersion: trendsMethodologyVersion,
    methodology: methodologySummary,
    sample: {
      candidateVideos: sample.candidates.length,
      enrichedVideos: enriched.length - fromCards,
      searchCardVideos: fromCards,
      channels: new Set(enriched.map((item) => item.video.channel.id)).size,
      observedVideos,
      recentCandidates: sample.recentCandidates,
      recentVideos,
    },
    window: { days: recencyWindowDays, recentCandidatesSampled: sample.recentChosen, recentVideosEnriched: recentVideos },
    confidence: reportConfidence({
      sampleSize: sample.chosen.length,
      enrichedVideos: enriched.length - fromCards,
      searchCardVideos: fromCards,
      observedVideos,
      failedEnrichments: failed,
      channels: channelIds.length,
      channelsWithoutBaseline,
    }),
    ...scored,
    warnings,
    ...(insights ? { insights } : {}),
  };
  announcer.announce(
    trendsReportGenerated,
    {
      reportId,
      query: request.q,
      mode: request.mode,
      videoIds: report.videos.map((video) => video.id),
      observedVideos,
      generatedAt: now,
    },
    (error) => logger.error({ err: error, reportId }, 'trends.report.generated not published; the report and its snapshots are saved'),
    { requestId: context.requestId, trace: context.trace },
  );
  return report;
}

/**
 * A video whose enrichment failed, scored from what its search card says: views, age (its display
 * text, so the publish date is an estimate), channel, duration. Null when the card lacks views or age.
 */
export function fromSearchCard(candidate: Candidate, now: string, baseline: number | null): EnrichedVideo | null {
  const { video } = candidate;
  if (video.viewCount === null || candidate.ageHours === null) return null;
  return {
    video: {
      id: video.id,
      title: video.title,
      description: '',
      channel: video.channel,
      thumbnails: video.thumbnails,
      durationSeconds: video.durationSeconds ?? 0,
      viewCount: video.viewCount,
      likeCount: null,
      commentCount: null,
      keywords: [],
      hashtags: [...new Set(video.title.match(/#[\p{L}\p{N}_]+/gu) ?? [])],
      meta: { partial: true },
    },
    source: 'search_card',
    publishDate: new Date(Date.parse(now) - candidate.ageHours * 3_600_000).toISOString(),
    searchRank: candidate.searchRank,
    publishedTimeText: video.publishedTimeText,
    earlier: [],
    baselineViewsPerHour: baseline,
  };
}
