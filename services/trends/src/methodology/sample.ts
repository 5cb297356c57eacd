import { hoursFromRelativeText, type SearchVideo } from '@vrs/contracts';

/** At most this many videos of one channel: one channel must not make the trend. */
export const maxVideosPerChannel = 2;
/** Share of the sample reserved for uploads inside the recency window. */
export const recentSlotShare = 0.3;
export const recencyWindowDays = 7;

export interface Candidate {
  video: SearchVideo;
  /** 1-based position among the deduplicated candidates, in search order. */
  searchRank: number;
  /** Age from the search result's display text; null when it gave none. */
  ageHours: number | null;
  recent: boolean;
}

/**
 * The diversified sample: candidates from every search, deduplicated (first rank wins), at most
 * `maxVideosPerChannel` per channel; ceil(30 %) of the slots go first to uploads inside the window
 * (in rank order), the rest to the best-ranked remaining candidates.
 */
export function diversifiedSample(searches: readonly (readonly SearchVideo[])[], sampleSize: number) {
  const windowHours = recencyWindowDays * 24;
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  for (const video of searches.flat()) {
    if (seen.has(video.id)) continue;
    seen.add(video.id);
    const ageHours = hoursFromRelativeText(video.publishedTimeText);
    candidates.push({ video, searchRank: candidates.length + 1, ageHours, recent: ageHours !== null && ageHours <= windowHours });
  }
  const perChannel = new Map<string, number>();
  const chosen: Candidate[] = [];
  const take = (candidate: Candidate) => {
    const channel = candidate.video.channel.id || candidate.video.id;
    if (chosen.length >= sampleSize || chosen.includes(candidate) || (perChannel.get(channel) ?? 0) >= maxVideosPerChannel) return;
    perChannel.set(channel, (perChannel.get(channel) ?? 0) + 1);
    chosen.push(candidate);
  };
  const recentSlots = Math.ceil(sampleSize * recentSlotShare);
  for (const candidate of candidates.filter((c) => c.recent)) if (chosen.length < recentSlots) take(candidate);
  for (const candidate of candidates) take(candidate);
  chosen.sort((a, b) => a.searchRank - b.searchRank);
  return {
    candidates,
    chosen,
    recentCandidates: candidates.filter((c) => c.recent).length,
    recentChosen: chosen.filter((c) => c.recent).length,
  };
}
