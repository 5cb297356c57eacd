import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { deleteNamespace } from '@vrs/bus';
import { apiClient } from '@vrs/testing/api-client';
import { startGatewayProcess, type RunningProcess } from '@vrs/testing/processes';
import { startFakeLlm, type FakeLlm } from '@vrs/testing/upstreams/llm/server';
import { hasRecorded, hasSynthetic, reportMissingShared } from '@vrs/testing/upstreams/youtube/fixture-dirs';
import { defaultReplayDirs, parseReplayDirs } from '@vrs/testing/upstreams/youtube/replay-dirs';
import { startFakeYouTube, type FakeYouTube } from '@vrs/testing/upstreams/youtube/server';
import { accountOf, admit, agentsOperator, ended, readEventStream, runPathOf } from './agents-support';

reportMissingShared('agent storyboards (e2e)');

const stackEnv = inject('stackEnv');
const videoId = 'rCAS2eD-mcw';
const question = `How is the cuff checked in https://www.youtube.com/watch?v=${videoId}?`;
/** The provider gives up on a YouTube request after this long: a hanging sheet fails with `timeout` then. */
const youtubeTimeoutMs = 1500;

/** The run's `get_storyboard` step, as its event stream reports it. */
async function storyboardStep(user: { url: string; headers: Record<string, string> }, run: { sessionId: string; runId: string }) {
  const stream = await fetch(`${user.url}${runPathOf(run)}/events`, { headers: user.headers });
  const events = await readEventStream(stream);
  return events.find((event) => event.event === 'step' && event.data.tool === 'get_storyboard')?.data;
}

/**
 * With a model configured (a stack of its own: one gateway hosting every service, its own fake YouTube
 * whose sheet faults no other suite sees, and its own fake LLM whose requests only this file reads).
 */
describe.skipIf(!hasRecorded || !hasSynthetic)('agent runs with useStoryboard and a model', () => {
  let fake: FakeYouTube;
  let llm: FakeLlm;
  let gateway: RunningProcess;
  let dataDir: string;
  const namespace = `e2e_storyboard_${process.pid}_${randomBytes(3).toString('hex')}`;
  const user = () => {
    const headers = { 'x-demo-user': `storyboard-${randomUUID()}` };
    return { api: apiClient(gateway.url, headers), url: gateway.url, headers };
  };

  beforeAll(async () => {
    fake = await startFakeYouTube({ replayDirs: parseReplayDirs(defaultReplayDirs), log: () => undefined });
    llm = await startFakeLlm();
    dataDir = await mkdtemp(join(tmpdir(), 'vrs-storyboard-'));
    gateway = await startGatewayProcess(
      'gateway-storyboard',
      {
        ...stackEnv,
        SERVICES_MODE: 'inprocess',
        SERVE_HOSTED_SERVICES: 'false',
        DATA_DIR: dataDir,
        NATS_NAMESPACE: namespace,
        YOUTUBE_UPSTREAM_URL: fake.url,
        YOUTUBE_TIMEOUT_MS: String(youtubeTimeoutMs),
        YOUTUBE_RETRIES: '0',
        YOUTUBE_BREAKER_THRESHOLD: '1000000',
        LLM_BASE_URL: llm.baseUrl,
        LLM_PRIMARY_MODEL: 'agents-primary',
        LLM_TIMEOUT_MS: '5000',
        LLM_MAX_RETRIES: '0',
        AGENTS_ENABLED: 'true',
        AGENTS_DEMO_ACCESS: 'true',
        // Generous: the whole capture's own deadline is tested in the provider; here the sheet request times out first.
        AGENTS_STORYBOARD_TIMEOUT_MS: '20000',
      },
      inject('logDir'),
    );
    // A whole gateway hosting every service starts here: on a loaded 2-core machine that takes a while.
  });
  beforeEach(() => {
    fake.reset();
    llm.reset();
  });
  afterAll(async () => {
    await gateway?.stop();
    await deleteNamespace(stackEnv.NATS_URL, namespace).catch(() => undefined);
    await Promise.all([fake?.close().catch(() => undefined), llm?.close().catch(() => undefined)]);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('reads the storyboard, hands its sheets to the model as WebP images and records one success diagnostic with every field', async () => {
    const caller = user();
    const { api } = caller;
    const run = await admit(api, { message: question, route: { useStoryboard: true, answerDetail: 'detailed' } });
    const done = await ended(api, run, '?details=diagnostics,evidence');
    expect(done.status).toBe('completed');
    expect(done.route).toMatchObject({ route: 'video_question', useStoryboard: true });
    expect(done.result.warnings.filter((warning: { code: string }) => warning.code === 'STORYBOARD_UNAVAILABLE')).toEqual([]);
    expect(done.extractionDiagnosticsTruncated).toBe(false);
    expect(done.extractionDiagnostics).toHaveLength(1);
    const [item] = done.extractionDiagnostics;
    expect(item).toMatchObject({
      version: 1,
      kind: 'storyboard',
      videoId,
      extractionId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      attempt: 1,
      slot: 0,
      recordedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      elapsedMs: expect.any(Number),
      outcome: 'success',
      capture: 'available',
      droppedEvents: 0,
      toolCallId: `get_storyboard:${videoId}`,
      backend: 'worker',
      egress: 'direct',
      status: 200,
    });
    expect(item.failureKind).toBeUndefined();
    const stages = item.events.map((event: { stage: string; outcome: string }) => `${event.stage}:${event.outcome}`);
    expect(stages).toEqual([
      'player:selected',
      'spec:parsed',
      ...stages.slice(2, -1).filter((stage: string) => stage.startsWith('sheet_fetch:') || stage.startsWith('convert:')),
      'model_input:sent',
    ]);
    expect(item.events[0]).toMatchObject({ profile: 'ANDROID', playabilityStatus: 'OK' });
    expect(item.events[1]).toMatchObject({ specState: 'valid', sheetCount: 3, width: 160, height: 90 });
    const converted = item.events.filter((event: { stage: string }) => event.stage === 'convert');
    expect(converted).toHaveLength(3);
    for (const event of converted) {
      expect(event).toMatchObject({ outcome: 'converted', inputFormat: 'jpeg', outputFormat: 'webp', sourceWidth: 800, sourceHeight: 450 });
      expect(event.outputBytes).toBeGreaterThan(0);
    }
    const modelInput = item.events.at(-1);
    const sentBytes = converted.reduce((sum: number, event: { outputBytes: number }) => sum + event.outputBytes, 0);
    expect(modelInput).toMatchObject({ sheetCount: 3, inputFormat: 'webp', inputBytes: sentBytes });

    // The model got the three sheets as WebP image parts, byte for byte what the provider converted.
    const withImages = llm.requests().filter((request) => request.images.length > 0);
    expect(withImages).toHaveLength(1);
    expect(withImages[0]!.images.map((image) => [image.mediaType, image.webp])).toEqual([
      ['image/webp', true],
      ['image/webp', true],
      ['image/webp', true],
    ]);
    expect(withImages[0]!.images.map((image) => image.bytes).sort()).toEqual(
      converted.map((event: { outputBytes: number }) => event.outputBytes).sort(),
    );
    expect(withImages[0]!.prompt).toContain('Frame 70: 5:45');

    // What the model described is evidence at the frames' moments (5 s apart in the level read).
    const frames = done.result.evidence.filter((evidence: { excerpt: string }) => evidence.excerpt.startsWith('Storyboard frame at'));
    expect(frames.length).toBeGreaterThan(0);
    for (const frame of frames) {
      expect(frame.startMs % 5000).toBe(0);
      expect(frame.endMs - frame.startMs).toBe(5000);
    }
    expect(await storyboardStep(caller, run)).toMatchObject({ status: 'completed', credits: 2 });
  });

  it('records a failure item with failureKind http_error and the status when YouTube refuses the sheets; the run completes with a warning, charged nothing for it', async () => {
    fake.addFault({ match: { endpoint: 'storyboard', videoId }, kind: 'status', status: 503 });
    const caller = user();
    const { api } = caller;
    const run = await admit(api, { message: question, route: { useStoryboard: true } });
    const done = await ended(api, run, '?details=diagnostics');
    expect(done.status).toBe('completed');
    expect(['answered', 'partial']).toContain(done.result.outcome);
    expect(done.result.warnings).toContainEqual({ code: 'STORYBOARD_UNAVAILABLE', message: expect.stringContaining('http_error') });
    expect(done.extractionDiagnostics).toHaveLength(1);
    const [item] = done.extractionDiagnostics;
    expect(item).toMatchObject({ outcome: 'failure', capture: 'available', failureKind: 'http_error', status: 503 });
    expect(item.events.filter((event: { stage: string }) => event.stage === 'sheet_fetch')).toEqual(
      Array.from({ length: 3 }, () => expect.objectContaining({ outcome: 'failed', status: 503 })),
    );
    expect(fake.hits().byEndpoint.storyboard).toBe(3);
    expect(llm.requests().filter((request) => request.images.length > 0)).toEqual([]);
    expect(await storyboardStep(caller, run)).toMatchObject({ status: 'completed', credits: 0 });
  });

  it('records failureKind timeout when the sheet requests hang', async () => {
    fake.addFault({ match: { endpoint: 'storyboard', videoId }, kind: 'timeout' });
    const { api } = user();
    const run = await admit(api, { message: question, route: { useStoryboard: true } });
    const done = await ended(api, run, '?details=diagnostics', 30_000);
    expect(done.status).toBe('completed');
    const [item] = done.extractionDiagnostics;
    expect(item).toMatchObject({ outcome: 'failure', failureKind: 'timeout' });
    expect(item.elapsedMs).toBeGreaterThanOrEqual(youtubeTimeoutMs);
    expect(item.events.filter((event: { stage: string }) => event.stage === 'sheet_fetch')).toEqual(
      Array.from({ length: 3 }, () => expect.objectContaining({ outcome: 'failed', code: 'UPSTREAM_UNAVAILABLE' })),
    );
    expect(done.result.warnings).toContainEqual({ code: 'STORYBOARD_UNAVAILABLE', message: expect.stringContaining('timeout') });
  });

  it('reads no storyboard when useStoryboard is off', async () => {
    const { api } = user();
    const done = await ended(api, await admit(api, { message: question }), '?details=diagnostics');
    expect(done.extractionDiagnostics).toEqual([]);
    expect(fake.hits().byEndpoint.storyboard).toBeUndefined();
  });
});

describe.skipIf(!hasRecorded || !hasSynthetic)('agent runs with useStoryboard and no model (the shared stack)', () => {
  it('keeps the STORYBOARD_UNAVAILABLE warning and records no diagnostics', async () => {
    const api = apiClient(inject('gatewayUrl'), { 'x-demo-user': `storyboard-nollm-${randomUUID()}` });
    const { accountId } = await accountOf(api);
    await agentsOperator(inject('agentsServiceUrl'), stackEnv.INTERNAL_TOKEN!).access.allow.mutate({ accountId });
    const done = await ended(api, await admit(api, { message: question, route: { useStoryboard: true } }), '?details=diagnostics');
    expect(done.status).toBe('completed');
    expect(done.result.warnings).toContainEqual({ code: 'STORYBOARD_UNAVAILABLE', message: expect.stringContaining('language model') });
    expect(done.extractionDiagnostics).toEqual([]);
  });
});
