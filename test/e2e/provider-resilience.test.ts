import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { deleteNamespace } from '@vrs/bus';
import { apiClient, type ApiCall, type ApiResponse } from '@vrs/testing/api-client';
import { startGatewayProcess, type RunningProcess } from '@vrs/testing/processes';
import { projectDir } from '@vrs/testing/upstreams/youtube/fixture-dirs';
import { startFakeYouTube, type FakeYouTube } from '@vrs/testing/upstreams/youtube/server';

const stackEnv = inject('stackEnv');
const reel = 'reel/reel_item_watch';
const videoPath = (id: string, query = '') => `/v1/providers/youtube/videos/${id}${query}`;

function expectError(response: ApiResponse, status: number, code: string, details: Record<string, unknown>) {
  expect(response.status, response.text).toBe(status);
  expect(response.body.error).toMatchObject({ code, details });
}

/**
 * A stack of its own: one gateway hosting every service in-process, its provider talking to a fake
 * upstream nobody else uses, with a bounded timeout and a breaker that opens after 3 consecutive
 * transport failures and stays open for the rest of the file (so that test comes last). Upstream hits are then this file's alone, and an open breaker stops nobody else.
 */
describe('upstream failures, retries and the circuit breaker (a stack of its own)', () => {
  let fake: FakeYouTube;
  let gateway: RunningProcess;
  let dataDir: string;
  let api: ApiCall;
  const namespace = `e2e_resilience_${process.pid}_${randomBytes(3).toString('hex')}`;
  const reelHits = () => fake.hits().byEndpoint[reel] ?? 0;

  beforeAll(async () => {
    fake = await startFakeYouTube({ replayDirs: [projectDir], log: () => undefined });
    dataDir = await mkdtemp(join(tmpdir(), 'vrs-resilience-'));
    gateway = await startGatewayProcess(
      'gateway-resilience',
      {
        ...stackEnv,
        SERVICES_MODE: 'inprocess',
        SERVE_HOSTED_SERVICES: 'false',
        DATA_DIR: dataDir,
        NATS_NAMESPACE: namespace,
        YOUTUBE_UPSTREAM_URL: fake.url,
        // Far above what a fixture's answer takes on a loaded machine (at load 30 one took over 300 ms and
        // every test of the file failed): only the fake that never answers may reach it.
        YOUTUBE_TIMEOUT_MS: '10000',
        YOUTUBE_RETRIES: '1',
        YOUTUBE_RETRY_BASE_DELAY_MS: '5',
        YOUTUBE_BREAKER_THRESHOLD: '3',
        // Long enough that the circuit can never half-open during the test, however loaded the machine:
        // its recovery is tested against a controlled clock in packages/youtube (resilience.test.ts).
        YOUTUBE_BREAKER_HALF_OPEN_MS: '600000',
      },
      inject('logDir'),
    );
    api = apiClient(gateway.url, { 'x-demo-user': 'resilience' });
  });
  afterAll(async () => {
    await gateway?.stop();
    await deleteNamespace(stackEnv.NATS_URL, namespace).catch(() => undefined);
    await fake?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  beforeEach(() => fake.reset());

  it('serves a saved version without asking YouTube; a refresh asks again', async () => {
    expect((await api('GET', videoPath('vrsFixture1'))).status).toBe(200);
    expect(reelHits()).toBe(1);
    const reused = await api('GET', videoPath('vrsFixture1'));
    expect(reused.headers.get('x-credits-charged')).toBe('1');
    expect(reelHits()).toBe(1);
    expect((await api('GET', videoPath('vrsFixture1', '?refresh=true'))).headers.get('x-credits-charged')).toBe('2');
    expect(reelHits()).toBe(2);
  });

  it('answers a failed refresh with the error, never the saved version, which stays and is served again', async () => {
    const saved = await api('GET', videoPath('vrsFixture1'));
    fake.addFault({ match: { endpoint: reel }, kind: 'status', status: 503, times: 2 });
    const failed = await api('GET', videoPath('vrsFixture1', '?refresh=true'));
    expectError(failed, 503, 'UPSTREAM_UNAVAILABLE', { reason: 'upstream_error', retryable: true });
    expect(failed.headers.get('x-credits-charged')).toBeNull();
    expect(reelHits()).toBe(2);
    expect((await api('GET', videoPath('vrsFixture1'))).body.meta.fetchedAt).toBe(saved.body.meta.fetchedAt);
    const refreshed = await api('GET', videoPath('vrsFixture1', '?refresh=true'));
    expect(refreshed.body.meta.fetchedAt > saved.body.meta.fetchedAt).toBe(true);
  });

  it('retries a transient failure once and answers the retry', async () => {
    fake.addFault({ match: { endpoint: reel }, kind: 'status', status: 429, times: 1 });
    expect((await api('GET', videoPath('vrsFixture1', '?refresh=true'))).status).toBe(200);
    expect(reelHits()).toBe(2);
  });

  it('gives up on an upstream that does not answer: 503 timeout, after the bounded retry', async () => {
    // The player never answers; the WEB player and /next asked beside it find no recording (404, not a transport failure).
    fake.addFault({ match: { endpoint: reel, videoId: 'neverAnswer' }, kind: 'timeout' });
    // The fake never answers, so only the upstream timeout can end the call: no bound on the clock.
    expectError(await api('GET', videoPath('neverAnswer')), 503, 'UPSTREAM_UNAVAILABLE', { reason: 'timeout', retryable: true });
    expect(reelHits()).toBe(2);
  });

  it('opens the circuit after consecutive failures and stops calling YouTube, while saved versions are served', async () => {
    // A success first: the breaker counts consecutive failures, and earlier tests left some.
    expect((await api('GET', videoPath('vrsFixture1', '?refresh=true'))).status).toBe(200);
    fake.reset();
    // An outage: every endpoint fails. The WEB player and /next asked beside each player are
    // optional reads, not counted: the player's failures are.
    fake.addFault({ kind: 'status', status: 500 });
    expectError(await api('GET', videoPath('vrsFixture1', '?refresh=true')), 503, 'UPSTREAM_UNAVAILABLE', { reason: 'upstream_error' });
    // The third consecutive failure opens the circuit; the retry then meets it open.
    expectError(await api('GET', videoPath('vrsFixture1', '?refresh=true')), 503, 'UPSTREAM_UNAVAILABLE', { reason: 'circuit_open' });
    expect(reelHits()).toBe(3);

    // Open: requests fail fast and YouTube sees none of them, even once it has recovered; saved
    // versions are still served.
    fake.reset();
    for (let i = 0; i < 5; i++) {
      const paused = await api('GET', videoPath('vrsFixture1', '?refresh=true'));
      expectError(paused, 503, 'UPSTREAM_UNAVAILABLE', { reason: 'circuit_open', retryable: true, retryAfterSeconds: 600 });
      // At the latest when the breaker lets a trial call through.
      expect(paused.headers.get('retry-after')).toBe('600');
    }
    expect((await api('GET', videoPath('vrsFixture1'))).status).toBe(200);
    expect(reelHits()).toBe(0);
  });
});
