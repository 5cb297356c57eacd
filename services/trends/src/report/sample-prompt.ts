import { groundCitations } from '@vrs/ai';
import type { TrendReportInput } from '@vrs/contracts';

/**
 * The sample as a model reads it: the topic first, then one line per video led by `videoId:` so the
 * model has exact ids to cite (and grounding can hold it to them).
 */
export function describeSample(
  report: Pick<TrendReportInput, 'query' | 'videos' | 'summary' | 'durationMix' | 'titlePatterns' | 'hashtags'>,
): string {
  const videos = report.videos.map(
    (video) =>
      `videoId: ${video.id} | "${video.title}" | channel ${video.channel.name} | band ${video.trendBand ?? 'n/a'} | score ${video.trendScore} | ` +
      `${video.effectiveViewsPerHour} views/h | ${Math.round(video.ageHours)} h old | ${video.durationSeconds} s | ${video.hashtags.join(' ')}`,
  );
  const mix = report.durationMix.map((item) => `${item.bucket} ${item.count} (median ${item.medianVelocity} views/h)`).join(', ');
  const tags = report.hashtags.map((item) => `${item.tag} ${item.count}`).join(', ');
  return [
    `Topic: ${report.query}`,
    `Median views/hour ${report.summary.medianViewsPerHour}; ${report.summary.breakoutCount} breakout videos; ${report.summary.publishedLast7Days} published in the last 7 days.`,
    `Duration mix: ${mix}`,
    `Hashtags: ${tags || 'none'}`,
    'Videos:',
    ...videos,
  ].join('\n');
}

/** Holds claims to the sample's videos: unknown videoIds are removed, a claim left with none is dropped. */
export function groundVideoIds<C extends { videoIds: string[] }>(claims: readonly C[], videos: readonly { id: string }[]) {
  const allowedIds = videos.map((video) => video.id);
  return groundCitations({ claims, allowedIds, getIds: (claim) => claim.videoIds, setIds: (claim, videoIds) => ({ ...claim, videoIds }) });
}
