import pLimit from 'p-limit';
import { trendsMethodologyVersion, trendsReportGenerated, type SearchVideo, type TrendReport, type Video } from '@vrs/contracts';
import type { TrendsDeps } from '../trends-deps';
import { reportConfidence } from '../methodology/confidence';
import { diversifiedSample, recencyWindowDays, type Candidate } from '../methodology/sample';
import { scoreSample, type EnrichedVideo } from '../methodology/score-sample';
import { channelBaselineViewsPerHour, hoursBetween } from '../methodology/signals';
import { generateInsights } from './insights';
import { newId } from '@vrs/kit';

/** One sentence per formula of docs/methodology/trends-3.0.md, as the report's `methodology` field. */
export const methodologySummary = [
  `Methodology ${trendsMethodologyVersion}.`,
  'Sample: three searches of the topic run side by side (relevance, two pages; upload date; view count), deduplicated, at most 2 videos per channel, 30% of the slots reserved for uploads of the last 7 days, each video enriched with exact counts.',
  'Velocity: views / age in hours (age at least 1 h); with an earlier snapshot (at least 15 min old, within 30 days) observed velocity = view delta / hours between snapshots, and acceleration = (observed − previous) / previous × 100, previous being the rate between the two earlier snapshots or the lifetime rate at the earlier one.',
  "Channel baseline: median views/hour of the channel's recent uploads; lift = effective views/hour / baseline (1 without a baseline). Engagement = (likes + comments) / views.",
  'Percentiles are mid-rank within the sample; trend score = 0.35 velocity + 0.15 freshness + 0.20 channel performance + 0.15 engagement + 0.15 acceleration; bands Breakout ≥ 80, Rising ≥ 60, Steady ≥ 40, else Cooling.',
  'Confidence starts at 100 and loses points for a small sample, missing history, failed enrichment and missing channel baselines (high ≥ 75, medium ≥ 50, else low).',
].join(' ');

export interface ReportRequest {
  q: string;
  sampleSize: number;
  mode: 'ai' | 'deterministic';
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The relevance search: its first page and, when YouTube offers one, the next. */
async function relevancePages({ provider }: TrendsDeps, q: string, warnings: string[]): Promise<SearchVideo[][]> {
  const first = (await provider.videos.search.query({ q, sort: 'relevance' })).result;
  if (!first.continuation) return [first.videos];
  try {
    const second = (await provider.videos.search.query({ q, sort: 'relevance', continuation: first.continuation })).result;
    return [first.videos, second.videos];
  } catch (error) {
    warnings.push(`The second search page failed (${messageOf(error)}); the sample draws on the first page only.`);
    return [first.videos];
  }
}

/** The other orders of the topic's search, one page each; a failed one is left out with a warning. */
const otherSorts = [
  { sort: 'upload_date', label: 'upload-date' },
  { sort: 'view_count', label: 'view-count' },
] as const;

/**
 * The searches of the topic, run concurrently: by relevance (two pages), by upload date and by view
 * count, in that order (the sample deduplicates them, first rank wins). Relevance is required.
 */
async function searchCandidates(deps: TrendsDeps, q: string, warnings: string[]): Promise<SearchVideo[][]> {
  const [relevance, ...others] = await Promise.all([
    relevancePages(deps, q, warnings),
    ...otherSorts.map(({ sort, label }) =>
      deps.provider.videos.search.query({ q, sort }).then(
        ({ result }) => [result.videos],
        (error: unknown) => {
          warnings.push(`The ${label} search failed (${messageOf(error)}); the sample draws on the other searches.`);
          return [];
        },
      ),
    ),
  ]);
  return [...relevance, ...others.flat()];
}

/**
 * A trend report (methodology 3.0): search, diversified sample, enrichment through the provider
 * (exact counts always fetched anew), channel baselines, earlier snapshots, scores and patterns;
 * then this report's snapshots are saved, and insights are added in `ai` mode.
 */
export async function buildTrendReport(deps: TrendsDeps, request: ReportRequest): Promise<TrendReport> {
  const { provider, snapshots, clock, logger, bus } = deps;
  const now = clock.now().toISOString();
  const warnings: string[] = [];
  const searches = await searchCandidates(deps, request.q, warnings);
  const sample = diversifiedSample(searches, request.sampleSize);
  const limit = pLimit(deps.config.enrichConcurrency);

  const channelIds = [...new Set(sample.chosen.map((candidate) => candidate.video.channel.id).filter(Boolean))];
  const [videoResults, baselines, earlier] = await Promise.all([
    Promise.all(
      sample.chosen.map((candidate) =>
        limit(() => provider.videos.get.query({ videoId: candidate.video.id, refresh: true })).then(
          ({ result }) => ({ candidate, video: result }),
          (error: unknown) => ({ candidate, error }),
        ),
      ),
    ),
    Promise.all(
      channelIds.map((channel) =>
        limit(() => provider.channels.get.query({ channel })).then(
          ({ result }) => [channel, channelBaselineViewsPerHour(result.recentUploads)] as const,
          () => [channel, null] as const,
        ),
      ),
    ).then((entries) => new Map(entries)),
    snapshots.earlier(
      sample.chosen.map((candidate) => candidate.video.id),
      now,
    ),
  ]);

  const enriched: EnrichedVideo[] = [];
  let failed = 0;
  for (const outcome of videoResults) {
    const { candidate } = outcome;
    if ('error' in outcome) {
      failed++;
      warnings.push(`Video ${candidate.video.id} could not be enriched (${messageOf(outcome.error)}); left out of the sample.`);
      continue;
    }
    const publishDate = outcome.video.publishDate;
    if (!publishDate || hoursBetween(publishDate, now) < 0) {
      failed++;
      warnings.push(`Video ${candidate.video.id} has no usable publish date; left out of the sample.`);
      continue;
    }
    enriched.push(
      toEnriched(
        candidate,
        outcome.video,
        publishDate,
        earlier.get(candidate.video.id) ?? [],
        baselines.get(outcome.video.channel.id) ?? null,
      ),
    );
  }
  const channelsWithoutBaseline = [...baselines.values()].filter((baseline) => baseline === null).length;
  if (channelsWithoutBaseline > 0)
    warnings.push(
      `No channel baseline for ${channelsWithoutBaseline} of ${channelIds.length} channels (channel page unavailable or without dated uploads).`,
    );

  const scored = scoreSample(enriched, now, recencyWindowDays);
  const reportId = newId('trr');
  // Saved after the read above, so a report never measures against its own snapshot.
  await snapshots.save(
    reportId,
    scored.videos.map((video) => ({
      videoId: video.id,
      channelId: video.channel.id,
      views: video.viewCount,
      likes: video.likeCount,
      comments: video.commentCount,
      at: now,
    })),
  );
  const observedVideos = scored.videos.filter((video) => video.signalSource === 'observed').length;
  const recentVideos = scored.videos.filter((video) => video.ageHours <= recencyWindowDays * 24).length;

  let insights: TrendReport['insights'];
  if (request.mode === 'ai') {
    const outcome = await generateInsights(deps.llm, { query: request.q, ...scored }, logger);
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
      enrichedVideos: enriched.length,
      channels: new Set(enriched.map((item) => item.video.channel.id)).size,
      observedVideos,
      recentCandidates: sample.recentCandidates,
      recentVideos,
    },
    window: { days: recencyWindowDays, recentCandidatesSampled: sample.recentChosen, recentVideosEnriched: recentVideos },
    confidence: reportConfidence({
      sampleSize: sample.chosen.length,
      enrichedVideos: enriched.length,
      observedVideos,
      failedEnrichments: failed,
      channels: channelIds.length,
      channelsWithoutBaseline,
    }),
    ...scored,
    warnings,
    ...(insights ? { insights } : {}),
  };
  await bus
    .publish(trendsReportGenerated, {
      reportId,
      query: request.q,
      mode: request.mode,
      videoIds: report.videos.map((video) => video.id),
      observedVideos,
      generatedAt: now,
    })
    .catch((error: unknown) =>
      logger.error({ err: error, reportId }, 'trends.report.generated not published; the report and its snapshots are saved'),
    );
  return report;
}

function toEnriched(
  candidate: Candidate,
  video: Video,
  publishDate: string,
  earlier: EnrichedVideo['earlier'],
  baseline: number | null,
): EnrichedVideo {
  return {
    video,
    publishDate,
    searchRank: candidate.searchRank,
    publishedTimeText: candidate.video.publishedTimeText,
    earlier,
    baselineViewsPerHour: baseline,
  };
}
