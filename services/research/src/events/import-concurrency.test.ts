import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeTempDir } from '@vrs/testing/temp-dir';
import type { EventBus } from '@vrs/bus';
import { openEmbeddedSearch } from '@vrs/search';
import { openStore, type Store } from '@vrs/store';
import { openTestBus } from '@vrs/testing/test-bus';
import type { ResearchImportConfig } from '../config';
import type { ProviderClient } from '../provider-client';
import { newAccountId, startResearch, type ResearchInstance } from '../testing/research-harness';

const poll = { timeout: 15_000, interval: 20 };

/**
 * A provider whose video reads wait until the test releases them, recording which reads are in
 * flight: what runs at once is then seen, not inferred from timings.
 */
function gatedProvider() {
  const waiting = new Map<string, () => void>();
  const started: string[] = [];
  let inFlight = 0;
  let mostAtOnce = 0;
  const provider = {
    videos: {
      get: {
        async query({ videoId }: { videoId: string }) {
          started.push(videoId);
          inFlight++;
          mostAtOnce = Math.max(mostAtOnce, inFlight);
          await new Promise<void>((resolve) => waiting.set(videoId, resolve));
          inFlight--;
          return { result: { id: videoId, title: `Video ${videoId}`, description: '', channel: { id: 'UC_test', name: 'Channel' } } };
        },
      },
    },
  } as unknown as ProviderClient;
  return {
    provider,
    started,
    mostAtOnce: () => mostAtOnce,
    release(videoId: string) {
      waiting.get(videoId)?.();
      waiting.delete(videoId);
    },
    releaseAll() {
      for (const videoId of [...waiting.keys()]) this.release(videoId);
    },
  };
}

const videoIds = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, n) => `${prefix}${String(n).padStart(11 - prefix.length, '0')}`);

describe('import concurrency on one replica (real nats-server)', () => {
  let bus: EventBus | undefined;
  let store: Store | undefined;
  let research: ResearchInstance | undefined;
  let gate: ReturnType<typeof gatedProvider>;

  async function startReplica(imports: ResearchImportConfig) {
    gate = gatedProvider();
    bus = await openTestBus('imports');
    const dataDir = makeTempDir('research-import-concurrency-');
    store = await openStore({ service: 'research', dataDir });
    research = await startResearch(store, bus, openEmbeddedSearch(join(dataDir, 'search')), { provider: gate.provider, imports });
    return research.api;
  }

  afterEach(async () => {
    gate?.releaseAll();
    await research?.module.stop();
    await bus?.close();
    await research?.search.close();
    await store?.close();
  });

  async function importJobs(api: ResearchInstance['api'], sources: string[][]) {
    const accountId = newAccountId();
    const project = await api.projects.create({ accountId, name: 'concurrency' });
    const jobIds: string[] = [];
    for (const ids of sources) {
      const { job } = await api.imports.create({
        accountId,
        projectId: project.id,
        source: { type: 'videos', ids },
        include: { metadata: true, transcript: false, comments: false },
      });
      jobIds.push(job.id);
    }
    return { accountId, jobIds };
  }

  it('runs two import jobs at once, each recording its videos once', async () => {
    const api = await startReplica({ jobsAtOnce: 2, videosAtOnce: 1 });
    const [first, second] = [videoIds('aaaa', 2), videoIds('bbbb', 2)];
    const { accountId, jobIds } = await importJobs(api, [first, second]);

    // The first video of each job is being read while neither is released: both jobs progress at once.
    await vi.waitFor(() => expect([...gate.started].sort()).toEqual([first[0], second[0]].sort()), poll);
    const running = await Promise.all(jobIds.map((jobId) => api.jobs.get({ accountId, jobId })));
    expect(running.map((job) => job.status)).toEqual(['running', 'running']);

    const releasing = setInterval(() => gate.releaseAll(), 10);
    try {
      await vi.waitFor(async () => {
        const jobs = await Promise.all(jobIds.map((jobId) => api.jobs.get({ accountId, jobId })));
        expect(jobs.map((job) => job.status)).toEqual(['completed', 'completed']);
      }, poll);
    } finally {
      clearInterval(releasing);
    }
    const jobs = await Promise.all(jobIds.map((jobId) => api.jobs.get({ accountId, jobId })));
    expect(jobs.map((job) => job.videos.map((video) => video.videoId).sort())).toEqual([first, second]);
    expect(jobs.map((job) => job.progress)).toEqual([
      { done: 2, total: 2 },
      { done: 2, total: 2 },
    ]);
    expect(gate.started.sort()).toEqual([...first, ...second].sort());
  });

  it('runs one job at a time when configured so', async () => {
    const api = await startReplica({ jobsAtOnce: 1, videosAtOnce: 1 });
    const [first, second] = [videoIds('cccc', 1), videoIds('dddd', 1)];
    await importJobs(api, [first, second]);

    await vi.waitFor(() => expect(gate.started).toHaveLength(1), poll);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(gate.started).toHaveLength(1);
    gate.releaseAll();
    await vi.waitFor(() => expect(gate.started).toHaveLength(2), poll);
  });

  it('imports up to videosAtOnce videos of one job side by side, and no more', async () => {
    const api = await startReplica({ jobsAtOnce: 1, videosAtOnce: 3 });
    const ids = videoIds('eeee', 7);
    const { accountId, jobIds } = await importJobs(api, [ids]);

    await vi.waitFor(() => expect(gate.started).toHaveLength(3), poll);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(gate.started).toHaveLength(3);

    const releasing = setInterval(() => gate.releaseAll(), 10);
    try {
      await vi.waitFor(async () => expect((await api.jobs.get({ accountId, jobId: jobIds[0]! })).status).toBe('completed'), poll);
    } finally {
      clearInterval(releasing);
    }
    const job = await api.jobs.get({ accountId, jobId: jobIds[0]! });
    expect(job.videos.map((video) => video.videoId).sort()).toEqual(ids);
    expect(job.progress).toEqual({ done: 7, total: 7 });
    expect(gate.mostAtOnce()).toBe(3);
  });
});
