import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deleteNamespace } from '@vrs/bus';
import { apiClient, type ApiCall, type ApiResponse } from '@vrs/testing/api-client';
import { startGatewayProcess, type RunningProcess } from '@vrs/testing/processes';
import { hasRecorded, hasSynthetic, reportMissingShared } from '@vrs/testing/upstreams/youtube/fixture-dirs';
import { defaultReplayDirs, parseReplayDirs } from '@vrs/testing/upstreams/youtube/replay-dirs';
import { startFakeYouTube, type FakeYouTube } from '@vrs/testing/upstreams/youtube/server';

reportMissingShared('upstream outages (e2e)');

const stackEnv = inject('stackEnv');
const replayDirs = parseReplayDirs(defaultReplayDirs);
/**
 * The provider gives up on an attempt after this long (one retry); the slow upstream answers far
 * later. Long enough that, once YouTube is back, a loaded 2-core machine still answers in time.
 */
const timeoutMs = 1500;
const eevblog = '@EEVblog';
/** Readable videos nothing else in this file reads: one per outage, so its comparison has to ask YouTube. */
const unsavedVideos = ['rCAS2eD-mcw', 'X4VbdwhkE10', 'dsMFmonKDD4', 'GJLlxj_dtq8', 'F1xioXWb8CY'];
const top150 = 'PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr';

interface Outage {
  name: string;
  /** What `details.reason` must say. */
  reason: string;
  /** The Retry-After the caller must be given, when YouTube (or the fake) said when to come back. */
  retryAfter: string | null;
  start(fake: FakeYouTube): Promise<void> | void;
  /** Returns the fake to use from then on (a downed upstream comes back as a new server on its port). */
  end(fake: FakeYouTube): Promise<FakeYouTube> | FakeYouTube;
}

const outages: Outage[] = [
  {
    name: 'down (connection refused)',
    reason: 'upstream_error',
    retryAfter: null,
    start: (fake) => fake.close(),
    end: (fake) => startFakeYouTube({ port: fake.port, replayDirs, log: () => undefined }),
  },
  {
    name: `slow (answers after 3 × the ${timeoutMs} ms timeout)`,
    reason: 'timeout',
    retryAfter: null,
    start: (fake) => fake.setLatency(3 * timeoutMs),
    end: (fake) => {
      fake.reset();
      return fake;
    },
  },
  {
    name: 'rate-limiting (429, Retry-After 1)',
    reason: 'rate_limited',
    retryAfter: '1',
    start: (fake) => fake.addFault({ kind: 'status', status: 429 }),
    end: (fake) => {
      fake.reset();
      return fake;
    },
  },
  {
    name: 'failing (503, Retry-After 7)',
    reason: 'upstream_error',
    retryAfter: '7',
    start: (fake) => fake.addFault({ kind: 'status', status: 503, retryAfterSeconds: 7 }),
    end: (fake) => {
      fake.reset();
      return fake;
    },
  },
  {
    name: 'failing (500)',
    reason: 'upstream_error',
    retryAfter: null,
    start: (fake) => fake.addFault({ kind: 'status', status: 500 }),
    end: (fake) => {
      fake.reset();
      return fake;
    },
  },
];

/** A request that has to reach YouTube: nothing saved can answer it. */
interface UpstreamOperation {
  name: string;
  send(api: ApiCall, round: number): Promise<ApiResponse>;
}

const encoded = (text: string) => encodeURIComponent(text);
const operations: UpstreamOperation[] = [
  { name: 'video (refresh)', send: (api) => api('GET', '/v1/providers/youtube/videos/vrsFixture1?refresh=true') },
  { name: 'transcript (refresh)', send: (api) => api('GET', '/v1/providers/youtube/videos/vrsFixture1/transcript?refresh=true') },
  { name: 'comments (refresh)', send: (api) => api('GET', '/v1/providers/youtube/videos/xaQJbozY_Is/comments?refresh=true') },
  { name: 'channel (refresh)', send: (api) => api('GET', `/v1/providers/youtube/channels/${eevblog}?refresh=true`) },
  { name: 'playlist (refresh)', send: (api) => api('GET', `/v1/providers/youtube/playlists/${top150}?refresh=true`) },
  { name: 'search', send: (api) => api('GET', `/v1/providers/youtube/search?q=${encoded('cold brew')}`) },
  { name: 'trends', send: (api) => api('GET', `/v1/providers/youtube/trends?q=${encoded('cold brew')}&mode=deterministic`) },
  { name: 'answers', send: (api) => api('POST', '/v1/answers', { json: { question: 'cold brew' } }) },
  {
    // One video saved before (served from its saved version), one never read: that one needs YouTube.
    name: 'comparisons',
    send: (api, round) => api('POST', '/v1/comparisons', { json: { type: 'video', ids: ['vrsFixture1', unsavedVideos[round]] } }),
  },
];

async function balanceOf(api: ApiCall): Promise<number> {
  return (await api('GET', '/v1/billing')).body.credits.balance;
}

async function finishedJob(api: ApiCall, jobId: string) {
  for (let attempt = 0; attempt < 200; attempt++) {
    const job = (await api('GET', `/v1/jobs/${jobId}`)).body;
    if (job.status === 'completed' || job.status === 'failed') return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`job ${jobId} did not finish`);
}

/**
 * Issue 12's fault tests on a stack of its own (one gateway hosting every service, a fake YouTube
 * nobody else uses, a 1.5 s timeout, one retry, a breaker that never opens: the breaker has its
 * own test in provider-resilience). For each way YouTube can fail, every operation that has to ask
 * it answers 503 UPSTREAM_UNAVAILABLE with the reason and, when known, Retry-After, costs nothing,
 * while saved data is still served; once YouTube is back, everything works again.
 */
describe.skipIf(!hasRecorded || !hasSynthetic)('YouTube down, slow, rate-limiting and failing, then back (a stack of its own)', () => {
  let fake: FakeYouTube;
  let gateway: RunningProcess;
  let dataDir: string;
  let api: ApiCall;
  let projectId: string;
  const namespace = `e2e_outages_${process.pid}_${randomBytes(3).toString('hex')}`;

  beforeAll(async () => {
    fake = await startFakeYouTube({ replayDirs, log: () => undefined });
    dataDir = await mkdtemp(join(tmpdir(), 'vrs-outages-'));
    gateway = await startGatewayProcess(
      'gateway-outages',
      {
        ...stackEnv,
        SERVICES_MODE: 'inprocess',
        SERVE_HOSTED_SERVICES: 'false',
        DATA_DIR: dataDir,
        NATS_NAMESPACE: namespace,
        YOUTUBE_UPSTREAM_URL: fake.url,
        YOUTUBE_TIMEOUT_MS: String(timeoutMs),
        YOUTUBE_RETRIES: '1',
        YOUTUBE_RETRY_BASE_DELAY_MS: '5',
        YOUTUBE_BREAKER_THRESHOLD: '1000000',
        // Answers need a model once YouTube is back: the research fake LLM, whose behaviours this file never moves.
        LLM_BASE_URL: `${inject('researchLlmUrl')}/v1`,
        LLM_PRIMARY_MODEL: 'research-primary',
        LLM_FALLBACK_MODEL: 'research-fallback',
        LLM_TIMEOUT_MS: '1500',
        LLM_MAX_RETRIES: '0',
      },
      inject('logDir'),
    );
    api = apiClient(gateway.url, { 'x-demo-user': 'outages' });
    // Saved before any outage: what the outage must still be able to serve.
    for (const path of ['/v1/providers/youtube/videos/vrsFixture1', '/v1/providers/youtube/videos/vrsFixture1/transcript']) {
      const saved = await api('GET', path);
      expect(saved.status, saved.text).toBe(200);
    }
    const project = await api('POST', '/v1/projects', { json: { name: 'Outages' } });
    expect(project.status, project.text).toBe(200);
    projectId = project.body.id;
  });
  afterAll(async () => {
    await gateway?.stop();
    await deleteNamespace(stackEnv.NATS_URL, namespace).catch(() => undefined);
    await fake?.close().catch(() => undefined);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  describe.each(outages.map((outage, round) => [outage.name, outage, round] as const))('YouTube %s', (_name, outage, round) => {
    it('every operation that has to ask YouTube answers 503 UPSTREAM_UNAVAILABLE, typed and free', async () => {
      await outage.start(fake);
      const before = await balanceOf(api);
      const responses = await Promise.all(operations.map((operation) => operation.send(api, round)));
      for (const [index, operation] of operations.entries()) {
        const response = responses[index]!;
        expect(response.status, `${operation.name}: ${response.text}`).toBe(503);
        expect(response.body.error, operation.name).toMatchObject({
          code: 'UPSTREAM_UNAVAILABLE',
          details: { reason: outage.reason, retryable: true },
          requestId: expect.any(String),
        });
        expect(response.headers.get('retry-after'), operation.name).toBe(outage.retryAfter);
        expect(response.headers.get('x-credits-charged') ?? '0', operation.name).toBe('0');
        // Our words only: nothing of what the upstream answered (or of the fake behind it).
        expect(response.text, operation.name).not.toMatch(/youtubei|injected|recording|fake|ECONNREFUSED|127\.0\.0\.1/i);
      }
      expect(await balanceOf(api)).toBe(before);
    });

    it('saved data is still served, from its saved version', async () => {
      const video = await api('GET', '/v1/providers/youtube/videos/vrsFixture1');
      expect(video.status, video.text).toBe(200);
      expect(video.headers.get('x-credits-charged')).toBe('1');
      const transcript = await api('GET', '/v1/providers/youtube/videos/vrsFixture1/transcript?detail=text');
      expect(transcript.status, transcript.text).toBe(200);
      // An import of a saved video completes without YouTube; one of a video never read fails typed.
      const saved = await api('POST', `/v1/projects/${projectId}/imports`, { json: { source: { type: 'video', id: 'vrsFixture1' } } });
      expect(saved.status, saved.text).toBe(202);
      expect(await finishedJob(api, saved.body.id)).toMatchObject({ status: 'completed', errors: [] });
      const unsaved = await api('POST', `/v1/projects/${projectId}/imports`, {
        json: { source: { type: 'video', id: `neverRead${round}` } },
      });
      const failed = await finishedJob(api, unsaved.body.id);
      expect(failed).toMatchObject({ status: 'failed', errors: [{ code: 'UPSTREAM_UNAVAILABLE' }] });
      expect(JSON.stringify(failed)).not.toMatch(/youtubei|injected|recording|fake|ECONNREFUSED/i);
    });

    it('works again once YouTube is back', async () => {
      fake = await outage.end(fake);
      const responses = await Promise.all(operations.map((operation) => operation.send(api, round)));
      for (const [index, operation] of operations.entries()) {
        expect(responses[index]!.status, `${operation.name}: ${responses[index]!.text}`).toBe(200);
      }
    });
  });
});
