import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '@vrs/testing/temp-dir';
import { createMemoryBus, type EventBus } from '@vrs/bus';
import { providerVideoFetched } from '@vrs/contracts';
import { AppError, rootLogger } from '@vrs/kit';
import { openStore, type Store } from '@vrs/store';
import { YouTubeError } from '@vrs/youtube';
import { createVersionsRepo } from '../repo/versions-repo';
import { createVersionedReads } from './versioned-reads';

describe('versioned reads', () => {
  let store: Store;
  let bus: EventBus;
  let published: unknown[];
  let requestIds: Array<string | undefined>;
  let fetches: number;
  let reads: ReturnType<typeof createVersionedReads>;

  beforeEach(async () => {
    store = await openStore({ service: 'provider', dataDir: makeTempDir('vrs-versions-') });
    bus = createMemoryBus();
    published = [];
    requestIds = [];
    fetches = 0;
    await bus.subscribe('test-recorder', providerVideoFetched, async (event) => {
      published.push(event.data);
      requestIds.push(event.requestId);
    });
    reads = createVersionedReads({
      versions: createVersionsRepo(store, { kept: 3 }),
      bus,
      logger: rootLogger.child({}, { level: 'silent' }),
    });
  });
  afterEach(async () => {
    await bus.close();
    await store.close();
  });

  const read = (refresh: boolean, fetch = async () => ({ n: ++fetches })) =>
    reads.read({
      kind: 'video',
      key: 'abc',
      request: { requestId: 'req_read' },
      refresh,
      fetch,
      event: providerVideoFetched,
      eventData: () => ({ videoId: 'abc' }),
    });

  it('fetches once, then serves the saved version whatever its age', async () => {
    const first = await read(false);
    const second = await read(false);
    expect(first.cached).toBe(false);
    expect(second).toEqual({ version: first.version, cached: true });
    expect(fetches).toBe(1);
  });

  it('a saved-only read answers the saved version, and with nothing saved fails without asking YouTube (ADR 0019)', async () => {
    const savedOnly = () =>
      reads.read({
        kind: 'video',
        key: 'abc',
        request: { requestId: 'req_read' },
        refresh: false,
        savedOnly: true,
        fetch: async () => ({ n: ++fetches }),
        event: providerVideoFetched,
        eventData: () => ({ videoId: 'abc' }),
      });
    await expect(savedOnly()).rejects.toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
    expect(fetches).toBe(0);
    const first = await read(false);
    expect(await savedOnly()).toEqual({ version: first.version, cached: true });
    expect(fetches).toBe(1);
  });

  it('saves a refresh as a new version, newer than the last, and serves it from then on', async () => {
    const first = await read(false);
    const refreshed = await read(true);
    expect(refreshed.cached).toBe(false);
    expect(refreshed.version._id).not.toBe(first.version._id);
    expect(refreshed.version.fetchedAt >= first.version.fetchedAt).toBe(true);
    expect((await read(false)).version).toEqual(refreshed.version);
    expect(await store.collection('versions').countDocuments({ kind: 'video', key: 'abc' })).toBe(2);
  });

  it('keeps only the newest versions of a key (3 here), the one it serves among them, and leaves other keys alone', async () => {
    const other = await reads.read({
      kind: 'video',
      key: 'other',
      request: { requestId: 'req_other' },
      refresh: false,
      fetch: async () => ({ n: 0 }),
      event: providerVideoFetched,
      eventData: () => ({ videoId: 'other' }),
    });
    const saved: string[] = [];
    for (let i = 0; i < 5; i++) saved.push((await read(true)).version._id);
    const kept = await store.collection('versions').find({ kind: 'video', key: 'abc' }, { sort: { fetchedAt: -1, _id: -1 } });
    expect(kept).toHaveLength(3);
    const served = (await read(false)).version._id;
    expect(served).toBe(kept[0]!._id);
    expect(kept.every((doc) => saved.includes(doc._id))).toBe(true);
    expect(await store.collection('versions').findOne({ _id: other.version._id })).not.toBeNull();
  });

  it('answers a failed refresh with the error, never the saved version, and keeps that version', async () => {
    const first = await read(false);
    const failure = new YouTubeError({ code: 'UPSTREAM_UNAVAILABLE', reason: 'rate_limited', message: 'YouTube rate-limited the request' });
    const error = await read(true, () => Promise.reject(failure)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', status: 503, details: { reason: 'rate_limited', retryable: true } });
    expect((await read(false)).version).toEqual(first.version);
  });

  it('announces each fetch with the version it was saved as and the request it served, and nothing for a reuse', async () => {
    const first = await read(false);
    await read(false);
    const refreshed = await read(true);
    await expect.poll(() => published.length).toBe(2);
    expect(published).toEqual([
      { provider: 'youtube', versionId: first.version._id, fetchedAt: first.version.fetchedAt, videoId: 'abc' },
      { provider: 'youtube', versionId: refreshed.version._id, fetchedAt: refreshed.version.fetchedAt, videoId: 'abc' },
    ]);
    expect(requestIds).toEqual(['req_read', 'req_read']);
  });

  it('answers before JetStream acknowledges the announcement, and settled() waits for the acknowledgement', async () => {
    let acknowledge!: () => void;
    const acknowledged = new Promise<void>((resolve) => {
      acknowledge = resolve;
    });
    const slowBus = Object.assign(Object.create(bus) as EventBus, {
      publish: (async () => {
        await acknowledged;
        return { eventId: 'evt', duplicate: false };
      }) satisfies EventBus['publish'],
    });
    const slowReads = createVersionedReads({
      versions: createVersionsRepo(store, { kept: 3 }),
      bus: slowBus,
      logger: rootLogger.child({}, { level: 'silent' }),
    });
    const answer = await slowReads.read({
      kind: 'video',
      key: 'abc',
      request: { requestId: 'req_read' },
      refresh: true,
      fetch: async () => ({ n: ++fetches }),
      event: providerVideoFetched,
      eventData: () => ({ videoId: 'abc' }),
    });
    expect(answer.cached).toBe(false);
    let settled = false;
    const settling = slowReads.settled().then(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    acknowledge();
    await settling;
    expect(settled).toBe(true);
  });

  it('still answers a saved fetch when its announcement cannot be published', async () => {
    await bus.close();
    const result = await read(false);
    expect(result.cached).toBe(false);
    expect((await read(false)).cached).toBe(true);
  });
});
