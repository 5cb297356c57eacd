import { beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, createApiKey, type ApiCall } from '@vrs/testing/api-client';

const gatewayUrl = inject('gatewayUrl');
const stackEnv = inject('stackEnv');

async function ledgerKinds(api: ApiCall): Promise<string[]> {
  const ledger = await api('GET', '/v1/billing/ledger?limit=100');
  expect(ledger.status).toBe(200);
  return ledger.body.data.map((entry: { kind: string }) => entry.kind);
}

describe('input is validated before credits are reserved (issue 13, item 2)', () => {
  it('with 0 credits, a blank search query is 422 QUERY_REQUIRED, not 402, and nothing is reserved', async () => {
    const { key } = await createApiKey(stackEnv, { credits: 0 });
    const api = apiClient(gatewayUrl, { authorization: `Bearer ${key}` });
    const blank = await api('GET', '/v1/projects/00000000-0000-4000-8000-000000000000/search?q=');
    expect(blank.status).toBe(422);
    expect(blank.body.error.code).toBe('QUERY_REQUIRED');
    expect(blank.headers.get('x-credits-charged')).toBeNull();
    // A valid request still meets the balance.
    const valid = await api('GET', '/v1/projects/00000000-0000-4000-8000-000000000000/search?q=mask');
    expect(valid.status).toBe(402);
    // Nothing was ever reserved, so nothing had to be refunded (a grant of 0 writes no entry).
    expect((await ledgerKinds(api)).filter((kind) => kind !== 'grant')).toEqual([]);
  });

  it('a 422 costs no reserve and no refund: the ledger does not move', async () => {
    const api = apiClient(gatewayUrl, { 'x-demo-user': `strict-ledger-${Date.now()}` });
    const before = await ledgerKinds(api);
    for (const response of await Promise.all([
      api('POST', '/v1/projects', { json: { name: '   ' } }),
      api('POST', '/v1/projects', { json: { name: 'ok', colour: 'red' } }),
      api('GET', '/v1/providers/youtube/videos/bad%20id'),
      api('GET', '/v1/providers/youtube/videos/rCAS2eD-mcw/comments?limit=5'),
      api('POST', '/v1/comparisons', { json: { type: 'video', ids: ['only-one'] } }),
    ])) {
      expect(response.status, JSON.stringify(response.body)).toBe(422);
      expect(response.headers.get('x-credits-charged')).toBeNull();
    }
    expect(await ledgerKinds(api)).toEqual(before);
  });
});

describe('strict parameters (issue 13, item 6)', () => {
  const api = apiClient(gatewayUrl, { 'x-demo-user': `strict-${Date.now()}` });
  let projectId: string;

  beforeAll(async () => {
    const project = await api('POST', '/v1/projects', { json: { name: 'Masks' } });
    projectId = project.body.id;
    const items = Array.from({ length: 7 }, (_, i) => ({ text: `laryngeal mask insertion step ${i}`, sourceKey: `note:${i}` }));
    expect((await api('POST', `/v1/projects/${projectId}/evidence`, { json: { items } })).status).toBe(200);
  });

  it('project search honours limit (default 20, at most 100); a misspelled one is UNKNOWN_PARAMETER naming it', async () => {
    let all: { status: number; body: { results: unknown[] } } | undefined;
    for (let attempt = 0; attempt < 100 && (all?.body.results.length ?? 0) < 7; attempt++) {
      all = await api('GET', `/v1/projects/${projectId}/search?q=mask`);
    }
    expect(all!.body.results).toHaveLength(7);
    const two = await api('GET', `/v1/projects/${projectId}/search?q=mask&limit=2`);
    expect(two.status).toBe(200);
    expect(two.body.results).toHaveLength(2);
    expect(two.body.results).toEqual(all!.body.results.slice(0, 2));

    const misspelled = await api('GET', `/v1/projects/${projectId}/search?q=mask&limt=2&foo=1`);
    expect(misspelled.status).toBe(422);
    expect(misspelled.body.error).toMatchObject({ code: 'UNKNOWN_PARAMETER', details: { parameters: ['limt', 'foo'] } });
    expect(misspelled.body.error.message).toContain('limt');
    expect(misspelled.headers.get('x-credits-charged')).toBeNull();
  });

  it('malformed or out-of-range values are 422 naming the field', async () => {
    for (const limit of ['abc', '0', '101', '2.5']) {
      const response = await api('GET', `/v1/projects/${projectId}/search?q=mask&limit=${limit}`);
      expect(response.status, limit).toBe(422);
      expect(response.body.error.code).toBe('VALIDATION_FAILED');
      expect(response.body.error.details.issues[0].path).toBe('limit');
    }
  });

  it('comments: limit or replies without newest=true is a 422, not a silent page of 20', async () => {
    for (const query of ['limit=5', 'replies=true']) {
      const response = await api('GET', `/v1/providers/youtube/videos/xaQJbozY_Is/comments?${query}`);
      expect(response.status, query).toBe(422);
      expect(response.body.error.details.issues[0].path).toBe(query.split('=')[0]);
    }
  });

  it('every operation refuses what it does not declare: query parameters, body fields at any depth', async () => {
    const cases: [string, string, unknown, string[]][] = [
      ['GET', '/v1/health?verbose=1', undefined, ['verbose']],
      ['GET', '/v1/projects?limit=5&sort=name', undefined, ['sort']],
      ['POST', '/v1/projects?dryRun=true', { name: 'x' }, ['dryRun']],
      ['POST', '/v1/projects', { name: 'x', descripton: 'y' }, ['descripton']],
      ['POST', `/v1/projects/${projectId}/evidence`, { items: [{ text: 'a', sorceKey: 'k' }] }, ['items.0.sorceKey']],
      [
        'POST',
        `/v1/projects/${projectId}/imports`,
        { source: { type: 'video', id: 'rCAS2eD-mcw' }, include: { coments: true } },
        ['include.coments'],
      ],
      ['GET', '/v1/providers/youtube/videos/rCAS2eD-mcw?refersh=true', undefined, ['refersh']],
      ['GET', '/v1/exports/exp_0/download?inline=1', undefined, ['inline']],
    ];
    for (const [method, path, json, parameters] of cases) {
      const response = await api(method, path, json === undefined ? {} : { json });
      expect(response.status, `${method} ${path}`).toBe(422);
      expect(response.body.error).toMatchObject({ code: 'UNKNOWN_PARAMETER', details: { parameters } });
    }
  });

  it('the OpenAPI document shows the strict parameters', async () => {
    const { body: doc } = await api('GET', '/v1/openapi.json');
    const search = doc.paths['/projects/{projectId}/search'].get;
    expect(search.parameters.find((p: { name: string }) => p.name === 'limit')).toMatchObject({
      in: 'query',
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    });
    expect(search.responses['422'].description).toContain('UNKNOWN_PARAMETER');
    expect(doc.paths['/projects'].post.requestBody.content['application/json'].schema.additionalProperties).toBe(false);
    const importBody = doc.paths['/projects/{projectId}/imports'].post.requestBody.content['application/json'].schema;
    expect(importBody.properties.include.additionalProperties).toBe(false);
  });
});
