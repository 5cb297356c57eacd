import { hoursFromRelativeText } from '@vrs/contracts';
import { median, round } from './stats';

/** A video's public counts at one moment: what a snapshot keeps. */
export interface CountsAt {
  views: number;
  likes: number;
  comments: number;
  /** ISO 8601. */
  at: string;
}

const hourMs = 3_600_000;
/** Snapshots younger than this are too close to the current counts to measure a rate. */
const minObservationHours = 0.25;

export const hoursBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / hourMs;

/** Age in hours at `now`, at least 1 so a just-published video does not divide by ~0. */
export function ageHoursAt(publishDate: string, now: string): number {
  return Math.max(1, hoursBetween(publishDate, now));
}

/** Lifetime velocity: views per hour since publication. */
export function lifetimeViewsPerHour(views: number, ageHours: number): number {
  return views / ageHours;
}

/** (likes + comments) / views; 0 for a video without views. */
export function engagementRate(views: number, likes: number, comments: number): number {
  return views > 0 ? (likes + comments) / views : 0;
}

/**
 * Signals from snapshots: the rate since the latest earlier snapshot, against the rate before it
 * (between the two latest earlier snapshots, or, with only one, the lifetime rate at that
 * snapshot). Null when there is no usable earlier snapshot: the caller falls back to lifetime velocity.
 * `earlier` is newest first.
 */
export function observedSignals(current: CountsAt, earlier: readonly CountsAt[], publishDate: string) {
  const [last, beforeLast] = earlier;
  if (!last) return null;
  const observationHours = hoursBetween(last.at, current.at);
  if (observationHours < minObservationHours) return null;
  const viewDelta = current.views - last.views;
  const observedViewsPerHour = viewDelta / observationHours;
  const previousViewsPerHour =
    beforeLast && hoursBetween(beforeLast.at, last.at) >= minObservationHours
      ? (last.views - beforeLast.views) / hoursBetween(beforeLast.at, last.at)
      : lifetimeViewsPerHour(last.views, ageHoursAt(publishDate, last.at));
  const accelerationPercent = previousViewsPerHour > 0 ? ((observedViewsPerHour - previousViewsPerHour) / previousViewsPerHour) * 100 : 0;
  return {
    observedViewsPerHour: round(observedViewsPerHour),
    previousViewsPerHour: round(previousViewsPerHour),
    accelerationPercent: round(accelerationPercent, 1),
    observationHours: round(observationHours),
    viewDelta,
    likeDelta: current.likes - last.likes,
    commentDelta: current.comments - last.comments,
  };
}

/** How the video's velocity compares with its channel's usual: effective views/hour ÷ baseline. */
export function channelLift(effectiveViewsPerHour: number, baselineViewsPerHour: number | null): number {
  // Without a baseline the video is taken to perform like its channel (lift 1): no evidence either way.
  if (baselineViewsPerHour === null || baselineViewsPerHour <= 0) return 1;
  return effectiveViewsPerHour / baselineViewsPerHour;
}

/**
 * Channel baseline: the median views/hour of the channel's recent uploads (its Videos tab), each
 * from its view count and the age its display text gives; null when no upload has both.
 */
export function channelBaselineViewsPerHour(uploads: readonly { viewCount: number | null; publishedTimeText: string }[]): number | null {
  const rates = uploads.flatMap(({ viewCount, publishedTimeText }) => {
    const age = hoursFromRelativeText(publishedTimeText);
    return viewCount === null || age === null ? [] : [viewCount / Math.max(1, age)];
  });
  return rates.length > 0 ? median(rates) : null;
}
