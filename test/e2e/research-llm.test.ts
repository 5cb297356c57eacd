import { afterEach, describe, expect, inject, it } from 'vitest';
import { apiClient, eventually, type ApiCall } from '@vrs/testing/api-client';
import { fakeLlmControl } from '@vrs/testing/upstreams/llm/control-client';
import { hasRecorded, hasSynthetic } from '@vrs/testing/upstreams/youtube/fixture-dirs';

/*
 * Every test that drives the research service's model lives in this file, so no other file runs
 * while a test here has told the fake LLM to fail.
 */
const gatewayUrl = inject('gatewayUrl');
const llm = fakeLlmControl(inject('researchLlmUrl'));

function demoUser(name: string) {
  return apiClient(gatewayUrl, { 'x-demo-user': `${name}-${Math.random().toString(36).slice(2)}` });
}

const notes = [
  {
    text: 'Grind size controls extraction: finer grinds extract espresso faster and taste stronger.',
    sourceKey: 'note:grind',
    entityId: 'vid1',
    startMs: 1200,
  },
  { text: 'Espresso brew ratio of one to two gives a balanced espresso shot.', sourceKey: 'note:ratio', entityId: 'vid2', startMs: 0 },
  { text: 'Milk steaming temperature should stay below seventy degrees.', sourceKey: 'note:milk' },
];

/** A project holding `notes`, searchable; returns its id and the stored items by id. */
async function projectWithNotes(api: ApiCall) {
  const projectId = (await api('POST', '/v1/projects', { json: { name: 'Espresso' } })).body.id as string;
  const added = await api('POST', `/v1/projects/${projectId}/evidence`, { json: { items: notes } });
  expect(added.status, added.text).toBe(200);
  await eventually(async () =>
    (await api('GET', `/v1/projects/${projectId}/search?q=espresso`)).body.results.length >= 2 ? true : undefined,
  );
  return { projectId, stored: new Map<string, Record<string, unknown>>(added.body.items.map((item: { id: string }) => [item.id, item])) };
}

/** Every citation is stored evidence of the project, numbered 1..n, and every `[n]` marker points at one. */
function expectGrounded(body: { answer: string; citations: Record<string, unknown>[] }, stored: Map<string, Record<string, unknown>>) {
  expect(body.citations.length).toBeGreaterThan(0);
  body.citations.forEach((citation, i) => {
    const item = stored.get(citation.id as string);
    expect(item, `citation ${String(citation.id)}`).toBeDefined();
    expect(citation).toMatchObject({ index: i + 1, text: item!.text, sourceKey: item!.sourceKey, score: expect.any(Number) });
  });
  const markers = [...body.answer.matchAll(/\[(\d+(?:, \d+)*)\]/g)].flatMap((m) => m[1]!.split(', ').map(Number));
  expect(markers.length).toBeGreaterThan(0);
  expect(markers.every((n) => n >= 1 && n <= body.citations.length)).toBe(true);
}

const balanceOf = async (api: ApiCall) => (await api('GET', '/v1/billing')).body.credits.balance as number;

describe('evidence-first reports and cited answers', () => {
  afterEach(() => llm.reset());

  it('writes a report from the project’s evidence only, every citation resolving to it, stored and readable', async () => {
    const api = demoUser('report');
    const { projectId, stored } = await projectWithNotes(api);
    const report = await api('POST', '/v1/reports', { json: { prompt: 'espresso grind and ratio', projectId } });
    expect(report.status, report.text).toBe(200);
    expect(Number(report.headers.get('x-credits-charged'))).toBe(5);
    expect(report.body).toMatchObject({
      mode: 'llm',
      model: 'research-primary',
      warnings: [],
      operationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expectGrounded(report.body, stored);

    const readBack = await api('GET', `/v1/operations/${report.body.operationId}`);
    expect(readBack.status).toBe(200);
    const { operationId, ...answer } = report.body;
    expect(readBack.body).toMatchObject({ ...answer, id: operationId, kind: 'report', prompt: 'espresso grind and ratio', projectId });
    expect((await demoUser('other')('GET', `/v1/operations/${operationId}`)).body.error.code).toBe('OPERATION_NOT_FOUND');

    // Listed among the caller's operations, and nobody else's.
    const listed = await api('GET', '/v1/operations');
    expect(listed.body).toEqual({ data: [readBack.body], hasMore: false, nextCursor: null });
    expect((await demoUser('other')('GET', '/v1/operations')).body.data).toEqual([]);
  });

  it.skipIf(!hasRecorded)('a report over an imported video quotes its description’s content, never its links or disclaimer', async () => {
    const api = demoUser('report-description');
    const projectId = (await api('POST', '/v1/projects', { json: { name: 'LMA' } })).body.id as string;
    const job = await api('POST', `/v1/projects/${projectId}/imports`, {
      json: { source: { type: 'video', id: 'rCAS2eD-mcw' }, include: { transcript: false } },
    });
    expect(job.status, job.text).toBe(202);
    await eventually(async () =>
      (await api('GET', `/v1/projects/${projectId}/search?q=LMA%20insertion`)).body.results.some((r: { sourceKey: string }) =>
        r.sourceKey.includes(':description:'),
      )
        ? true
        : undefined,
    );
    const report = await api('POST', '/v1/reports', {
      json: { projectId, prompt: 'LMA insertion steps, disclaimer, instagram, patreon, medical information warranties' },
    });
    expect(report.status, report.text).toBe(200);
    expect(report.body.citations.length).toBeGreaterThan(0);
    for (const citation of report.body.citations as { text: string }[]) {
      expect(citation.text.length).toBeLessThanOrEqual(480);
      for (const boilerplate of ['http', 'Instagram', 'patreon', 'Disclaimer', 'warranties', '#Anesthesiology']) {
        expect(citation.text, boilerplate).not.toContain(boilerplate);
      }
    }
  });

  it('answers 404 for another user’s project, uncharged', async () => {
    const { projectId } = await projectWithNotes(demoUser('owner'));
    const stranger = demoUser('stranger');
    const response = await stranger('POST', '/v1/reports', { json: { prompt: 'espresso', projectId } });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('PROJECT_NOT_FOUND');
    expect(response.headers.get('x-credits-charged')).toBeNull();
  });

  it('drops or repairs claims citing evidence it was never given, never returning them', async () => {
    const api = demoUser('fabricated');
    const { projectId, stored } = await projectWithNotes(api);
    await llm.setBehaviour('research-primary', 'cite-unknown');
    const report = await api('POST', '/v1/reports', { json: { prompt: 'espresso grind ratio', projectId } });
    expect(report.status, report.text).toBe(200);
    expectGrounded(report.body, stored);
    expect(JSON.stringify(report.body.citations)).not.toContain('fabricated');
    expect(report.body.warnings.join('\n')).toMatch(/ev_fabricated/);
  });

  it('uses the fallback model when the primary fails, and refunds with 503 AI_UNAVAILABLE when both do', async () => {
    const api = demoUser('fallback');
    const { projectId, stored } = await projectWithNotes(api);
    await llm.setBehaviour('research-primary', 'fail');
    const fallback = await api('POST', '/v1/reports', { json: { prompt: 'espresso grind', projectId } });
    expect(fallback.status, fallback.text).toBe(200);
    expect(fallback.body).toMatchObject({ mode: 'llm', model: 'research-fallback' });
    expectGrounded(fallback.body, stored);

    await llm.setBehaviour('research-fallback', 'invalid-json');
    const before = await balanceOf(api);
    const down = await api('POST', '/v1/reports', { json: { prompt: 'espresso grind', projectId } });
    expect(down.status).toBe(503);
    expect(down.body.error).toMatchObject({
      code: 'AI_UNAVAILABLE',
      details: { attempts: [{ model: 'research-primary' }, { model: 'research-fallback' }] },
    });
    expect(await balanceOf(api)).toBe(before);
  });

  it('says the evidence is insufficient instead of inventing an answer', async () => {
    const api = demoUser('insufficient');
    const { projectId } = await projectWithNotes(api);
    const report = await api('POST', '/v1/reports', { json: { prompt: 'volcanic geology', projectId } });
    expect(report.status, report.text).toBe(200);
    expect(report.body).toMatchObject({ mode: 'insufficient_evidence', citations: [] });
    expect(report.body.answer).toMatch(/^Insufficient evidence/);
  });

  it.skipIf(!hasRecorded)('answers a question from public evidence found through the provider', async () => {
    const api = demoUser('answer');
    const answer = await api('POST', '/v1/answers', { json: { question: 'cirque du soleil' } });
    expect(answer.status, answer.text).toBe(200);
    expect(Number(answer.headers.get('x-credits-charged'))).toBe(10);
    expect(answer.body).toMatchObject({ mode: 'llm', model: 'research-primary' });
    expect(answer.body.citations.length).toBeGreaterThan(0);
    for (const citation of answer.body.citations) {
      expect(citation).toMatchObject({
        id: expect.stringMatching(/^ev_/),
        provider: 'youtube',
        entityId: expect.any(String),
        sourceKey: expect.stringMatching(/^youtube:video:/),
      });
      expect(citation.text.toLowerCase()).toMatch(/cirque|soleil/);
    }
    expect((await api('GET', `/v1/operations/${answer.body.operationId}`)).body).toMatchObject({
      kind: 'answer',
      question: 'cirque du soleil',
    });
  });
});

describe.skipIf(!hasRecorded || !hasSynthetic)('comparisons', () => {
  afterEach(() => llm.reset());

  it('compares videos side by side with a cited summary of their transcripts, stored and readable', async () => {
    const api = demoUser('compare');
    const ids = ['vrsFixture1', 'rCAS2eD-mcw'];
    const comparison = await api('POST', '/v1/comparisons', { json: { type: 'video', ids } });
    expect(comparison.status, comparison.text).toBe(200);
    expect(Number(comparison.headers.get('x-credits-charged'))).toBe(5);
    expect(comparison.body).toMatchObject({ id: expect.stringMatching(/^cmp_/), type: 'video', warnings: [] });
    expect(comparison.body.videos.map((video: { id: string }) => video.id)).toEqual(ids);
    for (const video of comparison.body.videos) {
      expect(video).toMatchObject({ title: expect.any(String), durationSeconds: expect.any(Number), views: expect.any(Number) });
      expect(Object.keys(video)).toEqual(expect.arrayContaining(['viewsPerHour', 'engagementRate', 'publishAgeHours']));
    }
    const { summary } = comparison.body;
    expect(summary.model).toBe('research-primary');
    expect(summary.citations.length).toBeGreaterThan(0);
    for (const citation of summary.citations) {
      expect(ids).toContain(citation.entityId);
      expect(citation.sourceKey).toBe(`youtube:video:${citation.entityId}:transcript:${citation.startMs}`);
    }
    const markers = [...summary.answer.matchAll(/\[(\d+(?:, \d+)*)\]/g)].flatMap((m) => m[1]!.split(', ').map(Number));
    expect(markers.every((n) => n >= 1 && n <= summary.citations.length)).toBe(true);

    expect((await api('GET', `/v1/comparisons/${comparison.body.id}`)).body).toEqual(comparison.body);
    expect((await demoUser('other')('GET', `/v1/comparisons/${comparison.body.id}`)).body.error.code).toBe('COMPARISON_NOT_FOUND');
    expect((await api('GET', '/v1/comparisons')).body).toEqual({ data: [comparison.body], hasMore: false, nextCursor: null });
    expect((await demoUser('other')('GET', '/v1/comparisons')).body.data).toEqual([]);
  });

  it('keeps the metrics when the model is down, and fails, uncharged, when a video cannot be read', async () => {
    const api = demoUser('compare-down');
    await llm.setBehaviour('research-primary', 'fail');
    await llm.setBehaviour('research-fallback', 'fail');
    const degraded = await api('POST', '/v1/comparisons', { json: { type: 'video', ids: ['vrsFixture1', 'rCAS2eD-mcw'] } });
    expect(degraded.status, degraded.text).toBe(200);
    expect(degraded.body).not.toHaveProperty('summary');
    expect(degraded.body.warnings).toEqual(['No summary: the AI model service is unavailable.']);

    const missing = await api('POST', '/v1/comparisons', { json: { type: 'video', ids: ['vrsFixture1', 'INVALID_ID_'] } });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('VIDEO_UNAVAILABLE');
    expect(missing.headers.get('x-credits-charged')).toBeNull();
    expect((await api('POST', '/v1/comparisons', { json: { type: 'video', ids: ['vrsFixture1'] } })).status).toBe(422);
    const twice = await api('POST', '/v1/comparisons', { json: { type: 'video', ids: ['vrsFixture1', 'vrsFixture1'] } });
    expect([twice.status, twice.body.error.code]).toEqual([422, 'DUPLICATE_IDS']);
  });
});
