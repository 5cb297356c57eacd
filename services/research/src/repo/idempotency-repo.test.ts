import { createLogger } from '@vrs/kit';
import { createRetentionSweeper, openStore, type Store } from '@vrs/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '@vrs/testing/temp-dir';
import { createIdempotencyRepo, type IdempotencyRepo } from './idempotency-repo';

const day = 24 * 60 * 60 * 1000;

describe('idempotency records: kept 24 h, then deleted by the retention sweeper', () => {
  let store: Store;
  let now: number;
  let repo: IdempotencyRepo;

  beforeEach(async () => {
    store = await openStore({ service: 'research', dataDir: makeTempDir('research-idempotency-') });
    now = Date.parse('2026-03-01T12:00:00.000Z');
    repo = createIdempotencyRepo(store, { ttlMs: day, clock: () => now });
    await repo.ensureIndexes();
  });

  afterEach(() => store.close());

  const claim = () => repo.claim('acc', 'exports.create', 'key-1', 'fp-1');

  it('replays the first response within the window and takes the key afresh after it', async () => {
    const first = await claim();
    if (first.kind !== 'claimed') throw new Error('expected a fresh claim');
    await repo.complete(first.id, { exportId: 'e1' });
    now += day - 1;
    expect(await claim()).toEqual({ kind: 'existing', fingerprint: 'fp-1', response: { exportId: 'e1' } });
    // Expired but not swept yet: the claim itself does not replay it.
    now += 1;
    expect((await claim()).kind).toBe('claimed');
  });

  it('is deleted by the sweeper once its 24 h have passed, and not before', async () => {
    await claim();
    const sweeper = createRetentionSweeper({
      collections: repo.expiring,
      clock: () => now,
      intervalMs: day,
      logger: createLogger('idempotency-test'),
    });
    const records = store.collection('idempotency_keys');
    now += day - 1;
    expect(await sweeper.sweepOnce()).toBe(0);
    expect(await records.countDocuments()).toBe(1);
    now += 1;
    expect(await sweeper.sweepOnce()).toBe(1);
    expect(await records.countDocuments()).toBe(0);
    await sweeper.stop();
  });

  it('still expires a record written before it had an expiresAt, by its createdAt', async () => {
    const records = store.collection('idempotency_keys');
    const first = await claim();
    if (first.kind !== 'claimed') throw new Error('expected a fresh claim');
    await records.updateOne({ _id: first.id }, { $unset: { expiresAt: '' } });
    now += day - 1;
    expect((await claim()).kind).toBe('existing');
    now += 1;
    expect((await claim()).kind).toBe('claimed');
  });
});
