import type { TrendReport, TrendVideo, Video } from '@vrs/contracts';
import { deterministicPlan, durationMix, hashtagPatterns, titlePatterns } from './patterns';
import { percentilesOf, trendBand, trendScore, velocityRanks, videoConfidenceScore } from './scores';
import { ageHoursAt, channelLift, engagementRate, lifetimeViewsPerHour, observedSignals, type CountsAt } from './signals';
import { median, round } from './stats';

/** What scoring reads of a video: the provider's record, or the little a search card gives. */
export type SampledVideo = Omit<Video, 'publishDate' | 'isLive' | 'isUpcoming' | 'hasCaptions' | 'captionTracks' | 'meta'> & {
  meta: Pick<Video['meta'], 'partial'>;
};

/** One video of the sample and what is known around it. */
export interface EnrichedVideo {
  video: SampledVideo;
  /** `provider`: read anew with exact counts; `search_card`: its enrichment failed, so likes and comments are unknown. */
  source: 'provider' | 'search_card';
  /** Exact publish date (ISO), or for a search card the date its age text implies. */
  publishDate: string;
  searchRank: number;
  publishedTimeText: string;
  /** Earlier snapshots of the video, newest first (bounded read). */
  earlier: CountsAt[];
  /** The channel baseline in views/hour; null when the channel could not be read. */
  baselineViewsPerHour: number | null;
}

export type ScoredSample = Pick<TrendReport, 'videos' | 'summary' | 'hashtags' | 'titlePatterns' | 'durationMix' | 'plan'>;

/** Every per-video formula, the percentiles, the summary and the patterns of methodology 3.0. */
export function scoreSample(enriched: readonly EnrichedVideo[], now: string, windowDays: number): ScoredSample {
  // A search card has no likes or comments: its engagement is taken to be the sample's median,
  // so the unknown neither lifts nor sinks it.
  const knownEngagement = enriched
    .filter((item) => item.source === 'provider')
    .map(({ video }) => engagementRate(video.viewCount ?? 0, video.likeCount ?? 0, video.commentCount ?? 0));
  const neutralEngagement = median(knownEngagement);
  const measured = enriched.map((item) => {
    const { video } = item;
    const fromCard = item.source === 'search_card';
    const current: CountsAt = { views: video.viewCount ?? 0, likes: video.likeCount ?? 0, comments: video.commentCount ?? 0, at: now };
    const ageHours = ageHoursAt(item.publishDate, now);
    const viewsPerHour = lifetimeViewsPerHour(current.views, ageHours);
    // A card's counts are not the exact ones snapshots keep: no observed rate from them.
    const observed = fromCard ? null : observedSignals(current, item.earlier, item.publishDate);
    const effectiveViewsPerHour = observed ? Math.max(0, observed.observedViewsPerHour) : viewsPerHour;
    return {
      item,
      current,
      ageHours,
      viewsPerHour,
      observed,
      effectiveViewsPerHour,
      engagementRate: fromCard ? neutralEngagement : engagementRate(current.views, current.likes, current.comments),
      channelLift: channelLift(effectiveViewsPerHour, item.baselineViewsPerHour),
      accelerationPercent: observed?.accelerationPercent ?? 0,
    };
  });
  const scoring = measured.map((m) => ({ id: m.item.video.id, ...m }));
  const percentiles = percentilesOf(scoring);
  const ranks = velocityRanks(scoring);

  const videos: TrendVideo[] = measured.map((m) => {
    const { video } = m.item;
    const videoPercentiles = percentiles.get(video.id);
    const velocityRank = ranks.get(video.id);
    // Both are computed from `scoring`, which has every measured video.
    if (videoPercentiles === undefined || velocityRank === undefined) throw new Error(`video ${video.id} was not scored with its sample`);
    const score = trendScore(videoPercentiles);
    return {
      id: video.id,
      title: video.title,
      channel: { id: video.channel.id, name: video.channel.name },
      thumbnails: video.thumbnails,
      description: video.description,
      viewCount: m.current.views,
      signalSource: m.item.source === 'search_card' ? 'search_card' : m.observed ? 'observed' : 'lifetime',
      confidenceScore: videoConfidenceScore({
        searchCard: m.item.source === 'search_card',
        observed: m.observed !== null,
        hasBaseline: m.item.baselineViewsPerHour !== null,
        partial: video.meta.partial,
        ageHours: m.ageHours,
      }),
      hashtags: video.hashtags,
      keywords: video.keywords,
      effectiveViewsPerHour: round(m.effectiveViewsPerHour),
      velocityRank,
      percentiles: videoPercentiles,
      trendScore: score,
      trendBand: trendBand(score),
      url: `https://www.youtube.com/watch?v=${video.id}`,
      durationSeconds: video.durationSeconds,
      publishedTimeText: m.item.publishedTimeText,
      publishDate: m.item.publishDate,
      ageHours: round(m.ageHours),
      viewsPerHour: round(m.viewsPerHour),
      ...(m.observed ?? {}),
      commentCount: m.current.comments,
      likeCount: m.current.likes,
      engagementRate: round(m.engagementRate, 4),
      ...(m.item.baselineViewsPerHour !== null ? { channelBaselineViewsPerHour: round(m.item.baselineViewsPerHour) } : {}),
      channelLift: round(m.channelLift),
      searchRank: m.item.searchRank,
    };
  });

  const effective = measured.map((m) => m.effectiveViewsPerHour);
  const recent = measured.filter((m) => m.ageHours <= windowDays * 24).map((m) => m.effectiveViewsPerHour);
  const observedRates = measured.flatMap((m) => (m.observed ? [m.observed.observedViewsPerHour] : []));
  const medianEffective = median(effective);
  const summary: TrendReport['summary'] = {
    totalViews: measured.reduce((sum, m) => sum + m.current.views, 0),
    medianViewsPerHour: round(median(measured.map((m) => m.viewsPerHour))),
    publishedLast7Days: measured.filter((m) => m.ageHours <= 7 * 24).length,
    breakoutCount: videos.filter((video) => video.trendBand === 'Breakout').length,
    acceleratingCount: measured.filter((m) => (m.observed?.accelerationPercent ?? 0) > 0).length,
    medianObservedViewsPerHour: round(median(observedRates)),
    medianRecentViewsPerHour: round(median(recent)),
    recentVelocityLift: recent.length > 0 && medianEffective > 0 ? round(median(recent) / medianEffective) : 0,
  };

  const patternInput = measured.map((m) => ({
    title: m.item.video.title,
    hashtags: m.item.video.hashtags,
    durationSeconds: m.item.video.durationSeconds,
    effectiveViewsPerHour: m.effectiveViewsPerHour,
  }));
  const patterns = {
    hashtags: hashtagPatterns(patternInput),
    titlePatterns: titlePatterns(patternInput),
    durationMix: durationMix(patternInput),
  };
  return { videos, summary, ...patterns, plan: deterministicPlan(patternInput, patterns) };
}
