import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deleteNamespace } from '@vrs/bus';
import { apiClient, eventually, type ApiCall } from '@vrs/testing/api-client';
import { uniqueNamespace } from '@vrs/testing/nats';
import { startGatewayProcess, startProcess, startServiceProcess, type RunningProcess } from '@vrs/testing/processes';
import { hasRecorded, hasSynthetic } from '@vrs/testing/upstreams/youtube/fixture-dirs';
import { parseReplayDirs } from '@vrs/testing/upstreams/youtube/replay-dirs';
import { startFakeYouTube, type FakeYouTube } from '@vrs/testing/upstreams/youtube/server';

const stackEnv = inject('stackEnv');
const logDir = inject('logDir');
const videos = ['vrsFixture1', 'rCAS2eD-mcw', 'X4VbdwhkE10', 'dsMFmonKDD4'];

/**
 * A stack of its own (research, provider and gateway processes; a fake YouTube, namespace and data
 * dir of its own; the shared billing), because this file kills and slows its research service,
 * which also runs without a model: the global one is shared with every other test file.
 */
describe.skipIf(!hasRecorded || !hasSynthetic)('a research service of its own: restarts, cancels, no model', () => {
  let youtube: FakeYouTube;
  let dataDir: string;
  let env: Record<string, string>;
  let provider: RunningProcess;
  let research: RunningProcess;
  let gateway: RunningProcess;
  const started: RunningProcess[] = [];
  let api: ApiCall;

  const startResearch = (name: string, port: string) =>
    startProcess({
      name,
      entry: 'services/research/src/main.ts',
      env: { ...env, SERVICE_PORT: port },
      logDir,
      readyMessage: 'service listening',
    });

  beforeAll(async () => {
    youtube = await startFakeYouTube({ replayDirs: parseReplayDirs() });
    dataDir = await mkdtemp(join(logDir, 'job-restart-'));
    // A short ack wait, so the job of a killed process is redelivered within a second.
    env = {
      ...stackEnv,
      NATS_NAMESPACE: uniqueNamespace('jobs'),
      DATA_DIR: dataDir,
      YOUTUBE_UPSTREAM_URL: youtube.url,
      BUS_ACK_WAIT_MS: '1000',
      LLM_BASE_URL: '',
      // One video at a time, so a kill can land between a job's first video and its last.
      RESEARCH_IMPORT_VIDEO_CONCURRENCY: '1',
    };
    provider = await startServiceProcess('provider', env, logDir);
    env.PROVIDER_SERVICE_URL = provider.url;
    research = await startResearch('research-job-restart', '0');
    env.RESEARCH_SERVICE_URL = research.url;
    gateway = await startGatewayProcess('gateway-job-restart', env, logDir);
    started.push(provider, research, gateway);
    api = apiClient(gateway.url, { 'x-demo-user': `job-restart-${Date.now()}` });
  });

  afterAll(async () => {
    await Promise.all(started.map((running) => running.stop()));
    await deleteNamespace(env.NATS_URL!, env.NATS_NAMESPACE!).catch(() => undefined);
    await youtube?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function createJob(projectId: string, ids: string[]) {
    const created = await api('POST', `/v1/projects/${projectId}/imports`, { json: { source: { type: 'videos', ids } } });
    expect(created.status, created.text).toBe(202);
    return created.body.id as string;
  }

  const jobOf = async (jobId: string) => (await api('GET', `/v1/jobs/${jobId}`)).body;

  it('finishes a multi-video job after SIGKILL and a restart, importing every video once', async () => {
    const projectId = (await api('POST', '/v1/projects', { json: { name: 'Restart' } })).body.id;
    // Slow YouTube down, so the kill lands between the first video and the last.
    youtube.setLatency(150);
    const jobId = await createJob(projectId, videos);
    const midway = await eventually(
      async () => {
        const current = await jobOf(jobId);
        return current.progress.done >= 1 ? current : undefined;
      },
      { timeoutMs: 20_000, what: 'the first video' },
    );
    research.child.kill('SIGKILL');
    await new Promise((resolve) => research.child.once('exit', resolve));
    expect(midway.progress.done).toBeLessThan(videos.length);

    research = await startResearch('research-job-restart-2', new URL(research.url).port);
    started.push(research);
    youtube.setLatency(0);
    const job = await eventually(
      async () => {
        const current = await jobOf(jobId);
        return current.status === 'completed' ? current : undefined;
      },
      { timeoutMs: 30_000, what: 'the job to complete after the restart' },
    );

    expect(job.progress).toEqual({ done: videos.length, total: videos.length });
    expect(job.videos.map((video: { videoId: string }) => video.videoId).sort()).toEqual([...videos].sort());
    expect(job.videos.every((video: { status: string }) => video.status === 'imported')).toBe(true);
    // No video was imported twice: the restarted process went on where the killed one stopped. (The
    // killed one may die between recording a video and logging it, so its log can miss a line.)
    const importedBy = (runner: RunningProcess) =>
      runner
        .output()
        .split('\n')
        .filter((line) => line.includes('"msg":"video imported"'))
        .map((line) => JSON.parse(line).videoId as string);
    const [killed, restarted] = started.filter((p) => p.name.startsWith('research'));
    const imported = [...importedBy(killed!), ...importedBy(restarted!)];
    expect(new Set(imported).size).toBe(imported.length);
    expect(importedBy(restarted!).length).toBeGreaterThan(0);
    expect(importedBy(restarted!)).not.toContain(midway.videos[0].videoId);
    // And its evidence exists once: one metadata item per video.
    const hits = await eventually(
      async () => {
        const found = await api('GET', `/v1/projects/${projectId}/search?q=${encodeURIComponent('channel')}`);
        const metadata = (found.body.results as { sourceKey: string }[]).filter((r) => r.sourceKey.endsWith(':metadata'));
        return metadata.length === videos.length ? metadata : undefined;
      },
      { what: 'every video’s metadata to be searchable' },
    );
    expect(new Set(hits.map((hit) => hit.sourceKey)).size).toBe(videos.length);
  });

  it('stops a cancelled job before its next video', async () => {
    const projectId = (await api('POST', '/v1/projects', { json: { name: 'Cancel' } })).body.id;
    youtube.setLatency(150);
    const jobId = await createJob(projectId, videos);
    await eventually(async () => ((await jobOf(jobId)).status === 'running' ? true : undefined), {
      timeoutMs: 20_000,
      what: 'the job to run',
    });
    const cancelled = await api('POST', `/v1/jobs/${jobId}/cancel`, { json: {} });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    expect((await api('POST', `/v1/jobs/${jobId}/cancel`, { json: {} })).body.status).toBe('cancelled');
    youtube.setLatency(0);
    // One importer handles one job at a time: once a later job completes, the cancelled one has stopped.
    const later = await createJob(projectId, ['vrsFixture1']);
    await eventually(async () => ((await jobOf(later)).status === 'completed' ? true : undefined), {
      timeoutMs: 20_000,
      what: 'the later job',
    });
    const final = await jobOf(jobId);
    expect(final.status).toBe('cancelled');
    expect(final.progress.done).toBeLessThan(videos.length);
  });

  it('answers extractively, and says so, when no model is configured', async () => {
    const projectId = (await api('POST', '/v1/projects', { json: { name: 'Offline' } })).body.id;
    const added = await api('POST', `/v1/projects/${projectId}/evidence`, {
      json: { items: [{ text: 'Descaling the boiler every month keeps espresso machines healthy.', sourceKey: 'note:descale' }] },
    });
    await eventually(async () =>
      (await api('GET', `/v1/projects/${projectId}/search?q=descaling`)).body.results.length > 0 ? true : undefined,
    );
    const report = await api('POST', '/v1/reports', { json: { prompt: 'descaling espresso machines', projectId } });
    expect(report.status, report.text).toBe(200);
    expect(report.body).toMatchObject({
      mode: 'extractive',
      citations: [{ id: added.body.items[0].id, index: 1, sourceKey: 'note:descale' }],
    });
    expect(report.body).not.toHaveProperty('model');
    expect(report.body.answer).toMatch(/^Extractive answer \(no language model is configured/);
    expect(report.body.answer).toContain('"Descaling the boiler every month keeps espresso machines healthy." [1]');
  });

  it('refuses to compare a channel with itself, named by handle and by id: 422 DUPLICATE_IDS, not charged (issue 13)', async () => {
    const before = (await api('GET', '/v1/billing')).body.credits;
    const itself = await api('POST', '/v1/comparisons', { json: { type: 'channel', ids: ['@EEVblog', 'UC2DjFE7Xf11URZqWBigcVOQ'] } });
    expect(itself.status, itself.text).toBe(422);
    expect(itself.body.error).toMatchObject({
      code: 'DUPLICATE_IDS',
      details: { duplicates: [{ id: 'UC2DjFE7Xf11URZqWBigcVOQ', given: ['@EEVblog', 'UC2DjFE7Xf11URZqWBigcVOQ'] }] },
    });
    // Handles are case-insensitive: the same handle twice is refused at the edge, before anything is read.
    const sameHandle = await api('POST', '/v1/comparisons', { json: { type: 'channel', ids: ['@EEVblog', '@eevblog'] } });
    expect(sameHandle.body.error.code).toBe('DUPLICATE_IDS');
    // Not charged: the balance is unchanged. `reserved` and `spent` may move between the two reads
    // when the credit lease of an earlier request is settled (reserved credits become spent ones).
    expect((await api('GET', '/v1/billing')).body.credits.balance).toBe(before.balance);
  });

  it('compares channels by their figures and recent-upload medians, saying why a median is missing', async () => {
    // The recorded channel and an authored one (this stack's own provider, so no other file's channel
    // reads see a saved version they did not expect); the recorded videos tab lists no uploads.
    const comparison = await api('POST', '/v1/comparisons', { json: { type: 'channel', ids: ['@EEVblog', 'UCvrsTrendsChannel000001'] } });
    expect(comparison.status, comparison.text).toBe(200);
    expect(comparison.body).not.toHaveProperty('summary');
    expect(comparison.body.channels[1]).toMatchObject({ id: 'UCvrsTrendsChannel000001' });
    expect(comparison.body.channels.slice(0, 1)).toEqual(
      Array(1).fill({
        id: 'UC2DjFE7Xf11URZqWBigcVOQ',
        title: 'EEVblog',
        subscriberCount: 988_000,
        videoCount: 2_100,
        recentUploads: {
          sampled: 0,
          medianViews: null,
          medianViewsPerHour: null,
          medianDurationSeconds: null,
          medianPublishAgeHours: null,
        },
      }),
    );
    expect(comparison.body.warnings).toContain('UC2DjFE7Xf11URZqWBigcVOQ: The Videos tab listed no uploads.');
  });
});
