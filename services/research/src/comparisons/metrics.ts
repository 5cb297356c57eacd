import { hoursFromRelativeText, type Channel, type Comparison, type Video } from '@vrs/contracts';

type ComparedVideo = NonNullable<Comparison['videos']>[number];
type ComparedChannel = NonNullable<Comparison['channels']>[number];

const hourMs = 3_600_000;

/** Two decimals for rates, four for ratios: steady figures without float noise. */
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

export function median(values: readonly number[]): number | null {
  const sorted = [...values].sort((a, b) => a - b);
  // The middle value twice for an odd count, the middle two for an even one; none for an empty list.
  const lower = sorted[Math.ceil(sorted.length / 2) - 1];
  const upper = sorted[Math.floor(sorted.length / 2)];
  return lower === undefined || upper === undefined ? null : (lower + upper) / 2;
}

/** Views per hour of life; null without views or an age (a video published this very hour counts one hour). */
function viewsPerHour(views: number | null, ageHours: number | null): number | null {
  return views === null || ageHours === null ? null : round(views / Math.max(ageHours, 1), 2);
}

export function videoMetrics(video: Video, now: number): ComparedVideo {
  const published = video.publishDate ? Date.parse(video.publishDate) : Number.NaN;
  const publishAgeHours = Number.isNaN(published) ? null : round(Math.max(0, now - published) / hourMs, 2);
  const engaged = video.likeCount === null && video.commentCount === null ? null : (video.likeCount ?? 0) + (video.commentCount ?? 0);
  return {
    id: video.id,
    title: video.title,
    channel: { id: video.channel.id, name: video.channel.name },
    views: video.viewCount,
    viewsPerHour: viewsPerHour(video.viewCount, publishAgeHours),
    engagementRate: engaged === null || !video.viewCount ? null : round(engaged / video.viewCount, 4),
    durationSeconds: video.durationSeconds,
    publishDate: video.publishDate,
    publishAgeHours,
  };
}

export function channelMetrics(channel: Channel): ComparedChannel {
  const uploads = channel.recentUploads.map((video) => {
    const ageHours = hoursFromRelativeText(video.publishedTimeText);
    return { views: video.viewCount, ageHours, perHour: viewsPerHour(video.viewCount, ageHours), duration: video.durationSeconds };
  });
  const present = (values: (number | null)[]) => values.filter((value): value is number => value !== null);
  return {
    id: channel.id,
    title: channel.title,
    subscriberCount: channel.subscriberCount,
    videoCount: channel.videoCount,
    recentUploads: {
      sampled: uploads.length,
      medianViews: median(present(uploads.map((u) => u.views))),
      medianViewsPerHour: median(present(uploads.map((u) => u.perHour))),
      medianDurationSeconds: median(present(uploads.map((u) => u.duration))),
      medianPublishAgeHours: median(present(uploads.map((u) => u.ageHours))),
    },
  };
}
