import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Llm } from '@vrs/ai';
import { AppError, createCallerFactory, createServiceClient, rootLogger } from '@vrs/kit';
import { createProviderModule, type ProviderRouter } from '@vrs/provider';
import { openStore } from '@vrs/store';
import { hasRecorded, replayYouTubeConfig, startReplay } from '@vrs/testing/youtube-replay';
import { openTestBus } from '@vrs/testing/test-bus';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTrendsModule } from '../../module';
import { clockControlOf } from '../../config';
import { createSnapshotsRepo } from '../../repo/snapshots-repo';

/**
 * A started trends module beside a provider module, as `npm start` hosts them: the provider is
 * called through the in-process service client, its YouTube client points at a fake upstream
 * replaying the project's fixtures (the "cold brew" topic among them). Embedded stores in a temp
 * dir, an in-process bus, and a caller of the trends router.
 */
async function startTrends(options: { llm?: Llm | null; clockControl?: boolean } = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'vrs-trends-'));
  const [providerStore, trendsStore] = await Promise.all([
    openStore({ service: 'provider', dataDir }),
    openStore({ service: 'trends', dataDir }),
  ]);
  const bus = await openTestBus('trends');
  const fake = await startReplay();
  const logger = rootLogger.child({ component: 'trends-test' }, { level: 'silent' });
  const provider = await createProviderModule({
    store: providerStore,
    bus,
    logger,
    config: {
      youtube: replayYouTubeConfig(fake.url),
    },
  });
  const trends = await createTrendsModule({
    store: trendsStore,
    bus,
    logger,
    provider: createServiceClient<ProviderRouter>({ mode: 'inprocess', router: provider.router, caller: 'trends' }),
    llm: options.llm ?? null,
    config: { clockControl: options.clockControl ?? true, enrichConcurrency: 30 },
  });
  await Promise.all([provider.start(), trends.start()]);
  return {
    call: createCallerFactory(trends.router)({ requestId: 'req_test', caller: 'test' }),
    fake,
    store: trendsStore,
    async close() {
      await Promise.all([trends.stop(), provider.stop()]);
      await bus.close();
      await Promise.all([providerStore.close(), trendsStore.close()]);
      await fake.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

type TrendsHarness = Awaited<ReturnType<typeof startTrends>>;

const now = '2026-01-20T12:00:00.000Z';
const later = (hours: number) => new Date(Date.parse(now) + hours * 3_600_000).toISOString();

describe('trends service over an in-process provider, without a model', () => {
  let trends: TrendsHarness;
  beforeAll(async () => {
    trends = await startTrends();
  });
  afterAll(() => trends.close());
  beforeEach(() => trends.fake.reset());

  it('persists a snapshot per video and reads at most two earlier ones per video, newest first', async () => {
    const previousRates: (number | undefined)[] = [];
    for (const [index, hours] of [0, 1, 2, 3].entries()) {
      await trends.call.clock.set({ now: later(hours) });
      const report = await trends.call.reports.generate({ q: 'cold brew', sampleSize: 8, mode: 'deterministic' });
      expect(report.sample.observedVideos).toBe(index === 0 ? 0 : 8);
      previousRates.push(report.videos.find((video) => video.id === 'coldBrew001')!.previousViewsPerHour);
    }
    // One earlier snapshot: the lifetime rate at it (48,000 / 24 h); two: the rate between them (no views moved).
    expect(previousRates).toEqual([undefined, 2000, 0, 0]);
    expect(await trends.store.collection('snapshots').countDocuments({ videoId: 'coldBrew001' })).toBe(4);
    const earlier = await createSnapshotsRepo(trends.store).earlier(['coldBrew001'], later(10));
    expect(earlier.get('coldBrew001')!.map((snapshot) => snapshot.at)).toEqual([later(3), later(2)]);
  });

  it('the sample draws on the relevance (two pages), upload-date and view-count searches', async () => {
    await trends.call.clock.set({ now });
    const report = await trends.call.reports.generate({ q: 'cold brew', sampleSize: 8, mode: 'deterministic' });
    // Every search was answered by its own page (the fake matches them by query and params).
    expect(trends.fake.hits()).toMatchObject({ byEndpoint: { search: 4 }, unmatched: 0 });
    expect(trends.fake.unmatched()).toEqual([]);
    expect(report.sample.candidateVideos).toBe(20);
    expect(report.warnings.filter((warning) => warning.includes('search'))).toEqual([]);
  });

  it("asks for the first search page's sampled videos while the second page is out, and each video once", async () => {
    await trends.call.clock.set({ now });
    // Every answer takes a second, so the first page's video reads reach the fake while the second page
    // is out however loaded the machine (at 100 ms, a run at load 30 sent them after it had answered).
    trends.fake.setLatency(1000);
    const report = await trends.call.reports.generate({ q: 'cold brew', sampleSize: 20, mode: 'deterministic' });
    trends.fake.setLatency(0);
    const exchanges = trends.fake.exchanges();
    const searches = exchanges.filter(({ key }) => key.endpoint === 'search');
    const secondPage = searches.find(({ key }) => key.keys.continuation !== undefined)!;
    const firstPage = searches.find(
      ({ receivedAt }) => receivedAt < secondPage.receivedAt && receivedAt === Math.min(...searches.map((s) => s.receivedAt)),
    )!;
    const videoReads = exchanges.filter(({ key }) => ['reel/reel_item_watch', 'player', 'next'].includes(key.endpoint));
    const early = new Set(videoReads.filter(({ receivedAt }) => receivedAt < secondPage.answeredAt!).map(({ key }) => key.keys.videoId));
    // The fixture's first relevance page holds coldBrew001–010; the sample keeps 9 of them (a channel cap).
    // The early ones are the sample's best-ranked videos (the first page's); the rest waited for page 2.
    const lastEarlyRank = Math.max(...report.videos.filter((video) => early.has(video.id)).map((video) => video.searchRank));
    expect([...early].sort()).toEqual(
      report.videos
        .filter((video) => video.searchRank <= lastEarlyRank)
        .map((video) => video.id)
        .sort(),
    );
    expect(report.videos.length - early.size).toBeGreaterThan(0);
    expect(early.size).toBeGreaterThan(5);
    expect(firstPage.answeredAt).toBeLessThan(Math.min(...videoReads.map(({ receivedAt }) => receivedAt)));
    const reads = videoReads.map(({ key }) => `${key.endpoint} ${key.keys.videoId}`);
    expect(new Set(reads).size).toBe(reads.length);
    expect(new Set(videoReads.map(({ key }) => key.keys.videoId))).toEqual(new Set(report.videos.map((video) => video.id)));
  });

  it('a failed enrichment scores the video from its search card, warns and lowers the confidence', async () => {
    await trends.call.clock.set({ now });
    trends.fake.addFault({ match: { videoId: 'coldBrew003' }, kind: 'status', status: 500 });
    const report = await trends.call.reports.generate({ q: 'cold brew', sampleSize: 20, mode: 'deterministic' });
    expect(report.videos).toHaveLength(16);
    const card = report.videos.find((video) => video.id === 'coldBrew003')!;
    const enriched = report.videos.filter((video) => video.id !== 'coldBrew003');
    expect(card).toMatchObject({ signalSource: 'search_card', likeCount: 0, commentCount: 0, description: '' });
    expect(card.viewCount).toBeGreaterThan(0);
    expect(card.confidenceScore).toBeLessThan(Math.min(...enriched.map((video) => video.confidenceScore)));
    expect(enriched.every((video) => video.signalSource === 'lifetime')).toBe(true);
    expect(report.sample).toMatchObject({ enrichedVideos: 15, searchCardVideos: 1 });
    expect(report.warnings.find((warning) => warning.startsWith('Video coldBrew003 could not be enriched'))).toMatch(
      /scored from its search card/,
    );
    expect(report.confidence.reasons).toContain('Enrichment failed for 1 of 16 sampled videos (all scored from their search card).');
  });

  it('does not keep a snapshot of a search card: its rounded counts would fake a rate later', async () => {
    await trends.call.clock.set({ now: later(100) });
    trends.fake.addFault({ match: { videoId: 'coldBrew004' }, kind: 'status', status: 500 });
    const before = await trends.store.collection('snapshots').countDocuments({ videoId: 'coldBrew004' });
    const report = await trends.call.reports.generate({ q: 'cold brew', sampleSize: 20, mode: 'deterministic' });
    expect(report.videos.find((video) => video.id === 'coldBrew004')).toMatchObject({ signalSource: 'search_card' });
    expect(await trends.store.collection('snapshots').countDocuments({ videoId: 'coldBrew004' })).toBe(before);
  });

  it.skipIf(!hasRecorded)(
    'the recorded "cirque du soleil" search, whose videos nobody recorded, is scored from its cards (reproduction 8)',
    async () => {
      await trends.call.clock.set({ now });
      const report = await trends.call.reports.generate({ q: 'cirque du soleil', sampleSize: 20, mode: 'deterministic' });
      // 40 candidates, most from the official channel: the cap of 2 per channel leaves 5 in the sample.
      expect(report.sample).toMatchObject({ candidateVideos: 40, enrichedVideos: 0, searchCardVideos: 5, observedVideos: 0 });
      expect(report.videos.map((video) => video.id)).toContain('x-1-gLv3aWs');
      expect(report.videos).toHaveLength(5);
      expect(report.videos.every((video) => video.signalSource === 'search_card' && video.viewCount >= 0)).toBe(true);
      expect(report.confidence.level).toBe('low');
      expect(report.warnings.filter((warning) => warning.includes('scored from its search card'))).toHaveLength(report.videos.length);
    },
  );

  it('ai mode without a model returns the report without insights, with a warning', async () => {
    const report = await trends.call.reports.generate({ q: 'cold brew', sampleSize: 8, mode: 'ai' });
    expect(report.insights).toBeUndefined();
    expect(report.warnings).toContain('Insights omitted: no AI model is configured.');
  });

  it('a plan without a model is AI_UNAVAILABLE', async () => {
    const report = await trends.call.reports.generate({ q: 'cold brew', sampleSize: 8, mode: 'deterministic' });
    await expect(trends.call.plans.generate({ accountId: 'acct_test', report })).rejects.toMatchObject({ cause: expect.any(AppError) });
    await expect(trends.call.plans.generate({ accountId: 'acct_test', report })).rejects.toMatchObject({
      cause: { code: 'AI_UNAVAILABLE' },
    });
  });
});

describe('the test-only clock control', () => {
  it('is refused unless turned on, and cannot be turned on in production', async () => {
    const trends = await startTrends({ clockControl: false });
    try {
      await expect(trends.call.clock.set({ now })).rejects.toMatchObject({ cause: { code: 'FORBIDDEN' } });
    } finally {
      await trends.close();
    }
    expect(() => clockControlOf({ NODE_ENV: 'production', TRENDS_CLOCK_CONTROL: true })).toThrow(/TRENDS_CLOCK_CONTROL/);
    expect(clockControlOf({ NODE_ENV: 'production', TRENDS_CLOCK_CONTROL: false })).toBe(false);
    expect(clockControlOf({ NODE_ENV: 'test', TRENDS_CLOCK_CONTROL: true })).toBe(true);
  });
});
