import { expiresAt, expiryIndex, type Store } from '@vrs/store';
import type { CountsAt } from '../methodology/signals';
import { newId } from '@vrs/kit';

/** One video's public counts as one report saw them. Snapshots are only ever added. */
export interface SnapshotDoc extends CountsAt {
  _id: string;
  videoId: string;
  channelId: string;
  reportId: string;
  /** `at` + the retention (at least the lookback): the retention sweeper deletes it after that (ADR 0029). */
  expiresAt?: string;
}

/** How many earlier snapshots a report reads per video: the methodology uses the latest two. */
export const snapshotsReadPerVideo = 2;
/** Snapshots older than this are not read: a rate measured over months says nothing about now. */
export const snapshotLookbackDays = 30;

/**
 * Metric snapshots, the trends service's own data. They grow with every report, so every read is
 * bounded (per video, newest first, within the lookback, through the `{videoId, at}` index). Each
 * expires `retentionDays` after it was taken, never sooner than the lookback.
 */
export function createSnapshotsRepo(store: Store, { retentionDays = snapshotLookbackDays }: { retentionDays?: number } = {}) {
  const snapshots = store.collection<SnapshotDoc>('snapshots');
  const keptMs = Math.max(retentionDays, snapshotLookbackDays) * 86_400_000;
  return {
    /** What the retention sweeper prunes. */
    expiring: { snapshots },

    ensureIndexes: () => snapshots.createIndexes([{ key: { videoId: 1, at: -1 }, name: 'video_newest_first' }, expiryIndex]),

    /** Earlier snapshots of each video taken before `before`, newest first, at most two each. */
    async earlier(videoIds: readonly string[], before: string): Promise<Map<string, CountsAt[]>> {
      const since = new Date(Date.parse(before) - snapshotLookbackDays * 86_400_000).toISOString();
      const found = await Promise.all(
        videoIds.map(async (videoId) => {
          const earlier = await snapshots.find(
            { videoId, at: { $lt: before, $gte: since } },
            { sort: { at: -1 }, limit: snapshotsReadPerVideo },
          );
          return [videoId, earlier.map(({ views, likes, comments, at }) => ({ views, likes, comments, at }))] as const;
        }),
      );
      return new Map(found);
    },

    save: (reportId: string, taken: readonly (CountsAt & { videoId: string; channelId: string })[]) =>
      taken.length === 0
        ? Promise.resolve()
        : snapshots.insertMany(
            taken.map((snapshot) => ({
              _id: newId('snap'),
              reportId,
              ...snapshot,
              expiresAt: expiresAt(Date.parse(snapshot.at), keptMs),
            })),
          ),

    ping: () => store.ping(),
  };
}

export type SnapshotsRepo = ReturnType<typeof createSnapshotsRepo>;
