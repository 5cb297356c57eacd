import type { TrendBand, TrendVideo } from '@vrs/contracts';
import { percentileRank } from './stats';

/** What scoring needs of each video of the sample. */
export interface ScoringInput {
  id: string;
  effectiveViewsPerHour: number;
  ageHours: number;
  channelLift: number;
  engagementRate: number;
  /** 0 for lifetime signals: no evidence of change. */
  accelerationPercent: number;
}

export type Percentiles = TrendVideo['percentiles'];

/**
 * Weights of the trend score in percent (sum 100): velocity leads, the others refine it. Integers,
 * so the weighted sum is exact and x.5 scores round the same way everywhere.
 */
export const scoreWeights: Percentiles = { velocity: 35, freshness: 15, channelPerformance: 20, engagement: 15, acceleration: 15 };

/** Band thresholds on the trend score, highest first. */
export const bandThresholds: readonly [TrendBand, number][] = [
  ['Breakout', 80],
  ['Rising', 60],
  ['Steady', 40],
  ['Cooling', 0],
];

/** Each video's percentile within the sample, per component; freshness ranks younger videos higher. */
export function percentilesOf(videos: readonly ScoringInput[]): Map<string, Percentiles> {
  const velocity = videos.map((v) => v.effectiveViewsPerHour);
  const freshness = videos.map((v) => -v.ageHours);
  const channelPerformance = videos.map((v) => v.channelLift);
  const engagement = videos.map((v) => v.engagementRate);
  const acceleration = videos.map((v) => v.accelerationPercent);
  return new Map(
    videos.map((video) => [
      video.id,
      {
        velocity: percentileRank(video.effectiveViewsPerHour, velocity),
        freshness: percentileRank(-video.ageHours, freshness),
        channelPerformance: percentileRank(video.channelLift, channelPerformance),
        engagement: percentileRank(video.engagementRate, engagement),
        acceleration: percentileRank(video.accelerationPercent, acceleration),
      },
    ]),
  );
}

export function trendScore(percentiles: Percentiles): number {
  const keys = Object.keys(scoreWeights) as (keyof Percentiles)[];
  return Math.round(keys.reduce((sum, key) => sum + scoreWeights[key] * percentiles[key], 0) / 100);
}

export function trendBand(score: number): TrendBand {
  const band = bandThresholds.find(([, threshold]) => score >= threshold);
  // The lowest band starts at 0, and a score is a weighted mean of percentiles (0-100).
  if (!band) throw new Error(`trend score ${score} is below every band`);
  return band[0];
}

/** 1 = fastest; ties keep sample order. */
export function velocityRanks(videos: readonly ScoringInput[]): Map<string, number> {
  const ordered = [...videos].sort((a, b) => b.effectiveViewsPerHour - a.effectiveViewsPerHour);
  return new Map(ordered.map((video, index) => [video.id, index + 1]));
}

/** Why a single video's signals are less certain, and what each costs its confidence score. */
export const videoConfidencePenalties = { lifetime: 30, noBaseline: 20, partial: 15, young: 15, searchCard: 25 } as const;
/** Under this age a video's rate swings with every hour. */
export const youngVideoHours = 6;

/**
 * A video scored from its search card pays the lifetime penalty (no history) and its own (age
 * estimated from display text, no likes or comments) instead of the partial one.
 */
export function videoConfidenceScore(video: {
  searchCard?: boolean;
  observed: boolean;
  hasBaseline: boolean;
  partial: boolean;
  ageHours: number;
}): number {
  const p = videoConfidencePenalties;
  const penalty =
    (video.observed ? 0 : p.lifetime) +
    (video.hasBaseline ? 0 : p.noBaseline) +
    (video.searchCard ? p.searchCard : video.partial ? p.partial : 0) +
    (video.ageHours < youngVideoHours ? p.young : 0);
  return Math.max(0, 100 - penalty);
}
