import { createLogger } from '@vrs/kit';
import { createRetentionSweeper, openStore, type Store } from '@vrs/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '@vrs/testing/temp-dir';
import { createSnapshotsRepo } from './snapshots-repo';

const day = 86_400_000;
const takenAt = Date.parse('2026-03-01T00:00:00.000Z');
const snapshot = (videoId: string, at: number) => ({
  videoId,
  channelId: 'c',
  views: 10,
  likes: 1,
  comments: 0,
  at: new Date(at).toISOString(),
});

describe('snapshot retention', () => {
  let store: Store;

  beforeEach(async () => {
    store = await openStore({ service: 'trends', dataDir: makeTempDir('trends-snapshots-') });
  });

  afterEach(() => store.close());

  const sweepAt = async (repo: ReturnType<typeof createSnapshotsRepo>, now: number) => {
    const sweeper = createRetentionSweeper({
      collections: repo.expiring,
      clock: () => now,
      intervalMs: day,
      logger: createLogger('snapshots-test'),
    });
    const deleted = await sweeper.sweepOnce();
    await sweeper.stop();
    return deleted;
  };

  it('keeps a snapshot for the 30-day lookback reports read, and deletes it after', async () => {
    const repo = createSnapshotsRepo(store);
    await repo.ensureIndexes();
    await repo.save('r1', [snapshot('v1', takenAt), snapshot('v2', takenAt + 10 * day)]);
    expect(await sweepAt(repo, takenAt + 30 * day - 1)).toBe(0);
    // The oldest a report still reads: taken exactly the lookback before it.
    expect((await repo.earlier(['v1'], new Date(takenAt + 30 * day - 1).toISOString())).get('v1')).toHaveLength(1);
    expect(await sweepAt(repo, takenAt + 30 * day)).toBe(1);
    expect((await repo.earlier(['v2'], new Date(takenAt + 30 * day).toISOString())).get('v2')).toHaveLength(1);
  });

  it('keeps snapshots longer when configured, never shorter than the lookback', async () => {
    const longer = createSnapshotsRepo(store, { retentionDays: 90 });
    await longer.ensureIndexes();
    await longer.save('r1', [snapshot('v1', takenAt)]);
    expect(await sweepAt(longer, takenAt + 90 * day - 1)).toBe(0);
    expect(await sweepAt(longer, takenAt + 90 * day)).toBe(1);
    const shorter = createSnapshotsRepo(store, { retentionDays: 1 });
    await shorter.save('r2', [snapshot('v3', takenAt)]);
    expect(await sweepAt(shorter, takenAt + 30 * day - 1)).toBe(0);
  });
});
