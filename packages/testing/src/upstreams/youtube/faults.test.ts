import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hasRecorded, hasSynthetic, projectDir, recordedDir, reportMissingShared, syntheticDir } from './fixture-dirs';
import { startFakeYouTube, type FakeYouTube } from './server';

reportMissingShared('fake-youtube faults');

const nextBody = (videoId: string) => JSON.stringify({ context: { client: { clientName: 'WEB' } }, videoId });

describe.skipIf(!hasRecorded || !hasSynthetic)('fake YouTube fault injection', () => {
  let fake: FakeYouTube;
  beforeAll(async () => {
    fake = await startFakeYouTube({ replayDirs: [recordedDir, syntheticDir, projectDir], log: () => undefined });
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  const next = (videoId = 'bem4adjGKjE', signal?: AbortSignal) =>
    fetch(`${fake.url}/youtubei/v1/next`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: nextBody(videoId),
      signal,
    });
  const control = (route: string, body?: unknown) =>
    fetch(
      `${fake.url}/__control/${route}`,
      body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    );

  it('answers with an injected status a bounded number of times, then replays again', async () => {
    fake.addFault({ match: { endpoint: 'next' }, kind: 'status', status: 503, times: 2 });
    expect((await next()).status).toBe(503);
    const second = await next();
    expect(second.status).toBe(503);
    expect(await second.json()).toMatchObject({ error: { code: 503, status: 'UNAVAILABLE' } });
    expect((await next()).status).toBe(200);
  });

  it('sends Retry-After with an injected 429', async () => {
    fake.addFault({ kind: 'status', status: 429, times: 1 });
    const res = await next();
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
  });

  it('matches faults on key fields', async () => {
    fake.addFault({ match: { videoId: 'xaQJbozY_Is' }, kind: 'status', status: 500 });
    expect((await next('xaQJbozY_Is')).status).toBe(500);
    expect((await next('bem4adjGKjE')).status).toBe(200);
  });

  it('delays answers (per rule and globally)', async () => {
    fake.addFault({ match: { endpoint: 'next' }, kind: 'latency', delayMs: 150, times: 1 });
    let started = Date.now();
    expect((await next()).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    fake.setLatency(100);
    started = Date.now();
    await next();
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
  });

  it('never answers a timed-out request', async () => {
    fake.addFault({ kind: 'timeout', times: 1 });
    await expect(next('bem4adjGKjE', AbortSignal.timeout(200))).rejects.toThrow();
    expect((await next()).status).toBe(200);
  });

  it('answers 200 with an empty body for an `empty` fault', async () => {
    fake.addFault({ match: { endpoint: 'timedtext' }, kind: 'empty' });
    const res = await fetch(`${fake.url}/api/timedtext?v=rCAS2eD-mcw&lang=en&fmt=srv3`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it('counts hits per endpoint, faulted or not, and is driven over HTTP too', async () => {
    expect((await control('faults', { match: { endpoint: 'next' }, kind: 'status', status: 500, times: 1 })).status).toBe(201);
    await next();
    await next();
    await fetch(`${fake.url}/api/timedtext?v=rCAS2eD-mcw&lang=en&fmt=srv3`);
    const hits = (await (await control('hits')).json()) as { total: number; byEndpoint: Record<string, number> };
    expect(hits).toMatchObject({ total: 3, byEndpoint: { next: 2, timedtext: 1 } });
    expect((await control('latency', { delayMs: 0 })).status).toBe(200);
    expect((await control('reset', {})).status).toBe(200);
    expect(((await (await control('hits')).json()) as { total: number }).total).toBe(0);
    const recordings = (await (await control('recordings')).json()) as { id: string }[];
    expect(recordings.length).toBe(fake.load.recordings);
  });
});
