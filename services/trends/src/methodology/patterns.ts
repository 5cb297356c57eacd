import { durationBuckets, titlePatternNames, type DurationBucket, type TitlePatternName, type TrendReport } from '@vrs/contracts';
import { median, round } from './stats';

/** What pattern analysis needs of each video. */
export interface PatternInput {
  title: string;
  hashtags: readonly string[];
  durationSeconds: number;
  effectiveViewsPerHour: number;
}

const titleTests: Record<TitlePatternName, (title: string) => boolean> = {
  question: (title) => title.includes('?'),
  number: (title) => /\d/.test(title),
  howTo: (title) => /\bhow to\b/i.test(title),
  list: (title) => /^\s*\d+\s+\p{L}|\btop\s+\d+\b/iu.test(title),
  brackets: (title) => /[[(]/.test(title),
  lengthShort: (title) => title.length < 40,
  lengthMedium: (title) => title.length >= 40 && title.length <= 70,
  lengthLong: (title) => title.length > 70,
};

/** Shorts ≤ 60 s, short ≤ 4 min, medium ≤ 20 min, long beyond. */
export function durationBucketOf(seconds: number): DurationBucket {
  if (seconds <= 60) return 'shorts';
  if (seconds <= 240) return 'short';
  if (seconds <= 1200) return 'medium';
  return 'long';
}

/** The videos that pass `test`: how many, their share of the sample and their median velocity. */
function group(videos: readonly PatternInput[], test: (video: PatternInput) => boolean) {
  const members = videos.filter(test);
  return {
    count: members.length,
    share: videos.length > 0 ? round(members.length / videos.length, 3) : 0,
    medianVelocity: round(median(members.map((video) => video.effectiveViewsPerHour))),
  };
}

/** Hashtags used by the sample (case-insensitive), most used first, at most 10. */
export function hashtagPatterns(videos: readonly PatternInput[]): TrendReport['hashtags'] {
  const tags = new Set(videos.flatMap((video) => video.hashtags.map((tag) => tag.toLowerCase())));
  return [...tags]
    .map((tag) => ({ tag, ...group(videos, (video) => video.hashtags.some((own) => own.toLowerCase() === tag)) }))
    .sort((a, b) => b.count - a.count || b.medianVelocity - a.medianVelocity || a.tag.localeCompare(b.tag))
    .slice(0, 10);
}

export function titlePatterns(videos: readonly PatternInput[]): TrendReport['titlePatterns'] {
  return titlePatternNames.map((pattern) => ({
    pattern,
    ...group(videos, (video) => titleTests[pattern](video.title)),
  }));
}

export function durationMix(videos: readonly PatternInput[]): TrendReport['durationMix'] {
  return durationBuckets.map((bucket) => ({
    bucket,
    ...group(videos, (video) => durationBucketOf(video.durationSeconds) === bucket),
  }));
}

const patternAdvice: Record<TitlePatternName, string> = {
  question: 'ask the viewer a question in the title',
  number: 'put a number in the title',
  howTo: 'frame it as a how-to',
  list: 'make it a numbered list',
  brackets: 'add a bracketed tag such as (2026) or [tested]',
  lengthShort: 'keep the title under 40 characters',
  lengthMedium: 'keep the title between 40 and 70 characters',
  lengthLong: 'use a descriptive title over 70 characters',
};

/**
 * Next steps drawn from the patterns alone: the duration bucket with the highest median velocity
 * (among buckets with at least 2 videos when any has), the title patterns used at least twice whose
 * median velocity beats the sample's, and the fastest hashtags used at least twice.
 */
export function deterministicPlan(
  videos: readonly PatternInput[],
  patterns: { hashtags: TrendReport['hashtags']; titlePatterns: TrendReport['titlePatterns']; durationMix: TrendReport['durationMix'] },
): TrendReport['plan'] {
  const sampleMedian = median(videos.map((video) => video.effectiveViewsPerHour));
  const byVelocity = <T extends { count: number; medianVelocity: number }>(items: readonly T[]) =>
    [...items].filter((item) => item.count >= 2).sort((a, b) => b.medianVelocity - a.medianVelocity);
  const buckets = byVelocity(patterns.durationMix);
  const top = buckets[0] ?? [...patterns.durationMix].sort((a, b) => b.count - a.count)[0];
  if (top === undefined) throw new Error('a plan needs a sample with durations');
  const format = top.bucket as DurationBucket;
  const winningPatterns = byVelocity(patterns.titlePatterns)
    .filter((item) => item.medianVelocity > sampleMedian)
    .map((item) => item.pattern);
  const hashtags = byVelocity(patterns.hashtags)
    .slice(0, 3)
    .map((item) => item.tag);
  const steps = [
    `Make a ${format} video: it has the highest median velocity in this sample.`,
    ...winningPatterns.map(
      (pattern) => `In the title, ${patternAdvice[pattern as TitlePatternName]}: titles doing so beat the sample's median velocity.`,
    ),
    ...(hashtags.length > 0 ? [`Tag it ${hashtags.join(' ')}: the fastest hashtags used by at least two videos.`] : []),
  ];
  return { format, titlePatterns: winningPatterns, hashtags, steps };
}
