import { describe, expect, inject, it } from 'vitest';
import { apiClient, eventually, type ApiCall } from '@vrs/testing/api-client';
import { hasRecorded, hasSynthetic } from '@vrs/testing/upstreams/youtube/fixture-dirs';

const gatewayUrl = inject('gatewayUrl');

function demoUser(name: string) {
  return apiClient(gatewayUrl, { 'x-demo-user': `${name}-${Math.random().toString(36).slice(2)}` });
}

async function newProject(api: ApiCall): Promise<string> {
  const created = await api('POST', '/v1/projects', { json: { name: 'Imports' } });
  expect(created.status, created.text).toBe(200);
  return created.body.id;
}

/** Polls the job until it reaches a final state. */
async function finishedJob(api: ApiCall, jobId: string) {
  return eventually(
    async () => {
      const job = await api('GET', `/v1/jobs/${jobId}`);
      expect(job.status, job.text).toBe(200);
      return ['completed', 'failed', 'cancelled'].includes(job.body.status) ? job.body : undefined;
    },
    { timeoutMs: 20_000, what: `job ${jobId} to finish` },
  );
}

/** Search results whose sourceKey names the unit, once the indexer has made them searchable. */
async function searchFor(api: ApiCall, projectId: string, q: string, sourceKey: string) {
  return eventually(
    async () => {
      const found = await api('GET', `/v1/projects/${projectId}/search?q=${encodeURIComponent(q)}`);
      const hits = (found.body.results as { id: string; sourceKey?: string; [field: string]: unknown }[]).filter(
        (result) => result.sourceKey === sourceKey,
      );
      const [first, ...rest] = hits;
      return first ? ([first, ...rest] as const) : undefined;
    },
    { what: `${sourceKey} to be searchable` },
  );
}

describe('imports into projects, as jobs', () => {
  it('imports a video as a 202 job that completes, with metadata and transcript evidence searchable by sourceKey', async () => {
    const api = demoUser('import');
    const projectId = await newProject(api);
    const created = await api('POST', `/v1/projects/${projectId}/imports`, { json: { source: { type: 'video', id: 'vrsFixture1' } } });
    expect(created.status, created.text).toBe(202);
    // The price is held, not yet charged: the job settles it when it ends (ADR 0019).
    expect(Number(created.headers.get('x-credits-charged'))).toBe(0);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^job_/),
      type: 'import',
      projectId,
      status: 'pending',
      progress: { done: 0, total: 0 },
      include: { metadata: true, transcript: true, comments: false },
      warnings: [],
      errors: [],
    });

    const job = await finishedJob(api, created.body.id);
    expect(job).toMatchObject({
      status: 'completed',
      progress: { done: 1, total: 1 },
      videos: [{ videoId: 'vrsFixture1', status: 'imported', evidenceCount: 3 }],
      errors: [],
    });

    const [chunk] = await searchFor(api, projectId, 'captions timed', 'youtube:video:vrsFixture1:transcript:0');
    expect(chunk).toMatchObject({
      provider: 'youtube',
      entityId: 'vrsFixture1',
      startMs: 0,
      text: 'welcome to the fixture video captions are timed word by word so tests can check srt and vtt',
    });
    const [metadata] = await searchFor(api, projectId, 'fixture', 'youtube:video:vrsFixture1:metadata');
    expect(metadata).toMatchObject({ provider: 'youtube', entityId: 'vrsFixture1' });
    expect(metadata).not.toHaveProperty('startMs');
    // The description is evidence of its own, without its hashtag row.
    const [description] = await searchFor(api, projectId, 'authored', 'youtube:video:vrsFixture1:description:0');
    expect(description.text).toMatch(/^A short video authored for the project's own tests/);
    expect(description.text).not.toContain('#fixtures');

    // Re-importing updates the same items in place: same ids, no copies.
    const again = await api('POST', `/v1/projects/${projectId}/imports`, {
      json: { source: { type: 'videos', ids: ['vrsFixture1', 'INVALID_ID_'] } },
    });
    const second = await finishedJob(api, again.body.id);
    expect(second).toMatchObject({
      status: 'completed',
      progress: { done: 2, total: 2 },
      errors: [{ videoId: 'INVALID_ID_', code: 'VIDEO_UNAVAILABLE' }],
    });
    const hits = await searchFor(api, projectId, 'captions timed', 'youtube:video:vrsFixture1:transcript:0');
    expect(hits.map((hit) => hit.id)).toEqual([chunk.id]);
  });

  it.skipIf(!hasRecorded || !hasSynthetic)('cuts a transcript into a few sentences per chunk, each starting at a segment', async () => {
    const api = demoUser('chunks');
    const projectId = await newProject(api);
    const created = await api('POST', `/v1/projects/${projectId}/imports`, {
      json: { source: { type: 'video', id: 'rCAS2eD-mcw' }, include: { metadata: false } },
    });
    expect((await finishedJob(api, created.body.id)).status).toBe('completed');
    const [chunk] = await searchFor(api, projectId, 'hard palate', 'youtube:video:rCAS2eD-mcw:transcript:37100');
    expect(chunk).toMatchObject({
      startMs: 37100,
      text: 'Hold the mask like a pen, with your index finger at the junction of the cuff and the tube. Press the tip against the hard palate and slide it along the palate in one smooth movement.',
    });
  });

  it.skipIf(!hasRecorded)(
    'imports a description as evidence in chunks, without its link lists, handles, hashtags and disclaimer',
    async () => {
      const api = demoUser('description');
      const projectId = await newProject(api);
      const created = await api('POST', `/v1/projects/${projectId}/imports`, {
        json: { source: { type: 'video', id: 'rCAS2eD-mcw' }, include: { transcript: false } },
      });
      expect((await finishedJob(api, created.body.id)).status).toBe('completed');
      const listed = await api('GET', `/v1/projects/${projectId}/evidence?limit=100`);
      const descriptionItems = (listed.body.data as { sourceKey: string; text: string }[]).filter((item) =>
        item.sourceKey.includes(':description:'),
      );
      expect(descriptionItems.length).toBeGreaterThan(0);
      const text = descriptionItems.map((item) => item.text).join('\n');
      expect(text).toContain('critical steps for LMA insertion');
      expect(text).toContain('Insertion technique');
      for (const boilerplate of [
        'http',
        'Instagram',
        'Twitter',
        'patreon',
        '#Anesthesiology',
        '@gmail.com',
        'Disclaimer',
        'warranties',
        'Contractology',
      ]) {
        expect(text, boilerplate).not.toContain(boilerplate);
      }
      expect(descriptionItems.every((item) => item.text.length <= 480)).toBe(true);
      const metadata = (listed.body.data as { sourceKey: string; text: string }[]).find((item) => item.sourceKey.endsWith(':metadata'));
      expect(metadata?.text).not.toContain('LMA insertion and a few high yield');
    },
  );
  it('charges a job that imported something in full, and refunds one that imported nothing (issue 13)', async () => {
    const api = demoUser('import-credits');
    const projectId = await newProject(api);
    const credits = async () => (await api('GET', '/v1/billing')).body.credits;
    const settled = async (expected: { spent: number }) =>
      eventually(
        async () => {
          const now = await credits();
          return now.reserved === 0 && now.spent === expected.spent ? now : undefined;
        },
        { what: `the job's credits to settle at ${expected.spent} spent` },
      );
    const before = await credits();

    // A non-existent video, and a list whose every video fails: nothing imported, everything refunded.
    for (const source of [
      { type: 'video', id: 'INVALID_ID_' },
      { type: 'videos', ids: ['INVALID_ID_', 'INVALID_ID2'] },
    ]) {
      const created = await api('POST', `/v1/projects/${projectId}/imports`, { json: { source } });
      expect(created.status, created.text).toBe(202);
      expect((await finishedJob(api, created.body.id)).status).toBe('failed');
      expect(await settled({ spent: before.spent })).toMatchObject({ balance: before.balance });
    }

    // Partial success (one of two videos imported) costs the full price.
    const partial = await api('POST', `/v1/projects/${projectId}/imports`, {
      json: { source: { type: 'videos', ids: ['vrsFixture1', 'INVALID_ID_'] } },
    });
    expect((await finishedJob(api, partial.body.id)).status).toBe('completed');
    expect(await settled({ spent: before.spent + 5 })).toMatchObject({ balance: before.balance - 5 });

    const ledger = await api('GET', '/v1/billing/ledger?limit=100');
    // The refunded jobs charged nothing, so they are not in the ledger; the partial one is one charge (ADR 0083).
    const lines = ledger.body.data
      .slice(0, 2)
      .map((entry: { kind: string; amount: number; operation: string }) => `${entry.kind} ${entry.amount} ${entry.operation}`);
    expect(lines).toEqual(['charge -5 createImport', 'charge -1 createProject']);
  });

  it('replays an Idempotency-Key: the first response, charged once; another request with the key is refused', async () => {
    const api = demoUser('idempotency');
    const projectId = await newProject(api);
    const body = { source: { type: 'video', id: 'vrsFixture1' } };
    const headers = { 'idempotency-key': `import-${Math.random()}` };
    const first = await api('POST', `/v1/projects/${projectId}/imports`, { json: body, headers });
    const replay = await api('POST', `/v1/projects/${projectId}/imports`, {
      json: { ...body, include: { metadata: true, transcript: true, comments: false } },
      headers,
    });
    expect(replay.status, replay.text).toBe(202);
    expect(replay.body).toEqual(first.body);
    expect(Number(first.headers.get('x-credits-charged'))).toBe(0);
    expect(Number(replay.headers.get('x-credits-charged'))).toBe(0);
    expect(Number(replay.headers.get('x-credits-remaining'))).toBe(Number(first.headers.get('x-credits-remaining')));

    const other = await api('POST', `/v1/projects/${projectId}/imports`, {
      json: { source: { type: 'video', id: 'rCAS2eD-mcw' } },
      headers,
    });
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const bad = await api('POST', `/v1/projects/${projectId}/imports`, { json: body, headers: { 'idempotency-key': 'has spaces' } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.issues[0].path).toBe('Idempotency-Key');
  });

  it('keeps projects and jobs to their owner, and refuses to cancel a finished job', async () => {
    const alice = demoUser('alice');
    const bob = demoUser('bob');
    const projectId = await newProject(alice);
    const foreign = await bob('POST', `/v1/projects/${projectId}/imports`, { json: { source: { type: 'video', id: 'vrsFixture1' } } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('PROJECT_NOT_FOUND');
    expect(foreign.headers.get('x-credits-charged')).toBeNull();

    const created = await alice('POST', `/v1/projects/${projectId}/imports`, {
      json: { source: { type: 'video', id: 'vrsFixture1' }, include: { transcript: false } },
    });
    await finishedJob(alice, created.body.id);
    expect((await bob('GET', `/v1/jobs/${created.body.id}`)).body.error.code).toBe('JOB_NOT_FOUND');
    expect((await bob('POST', `/v1/jobs/${created.body.id}/cancel`, { json: {} })).status).toBe(404);
    // No body at all, as curl -X POST sends it: an empty JSON object, not a 415.
    const cancel = await alice('POST', `/v1/jobs/${created.body.id}/cancel`);
    expect(cancel.status).toBe(409);
    expect(cancel.body.error).toMatchObject({ code: 'JOB_NOT_CANCELLABLE', details: { status: 'completed' } });
  });
});
