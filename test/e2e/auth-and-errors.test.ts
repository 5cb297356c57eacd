import { beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, createApiKey } from '@vrs/testing/api-client';

const gatewayUrl = inject('gatewayUrl');
const stackEnv = inject('stackEnv');
const anonymous = apiClient(gatewayUrl);

function expectEnvelope(response: { status: number; headers: Headers; body: any }, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.body.error).toMatchObject({ code, message: expect.any(String), requestId: expect.any(String) });
  expect(response.headers.get('x-request-id')).toBe(response.body.error.requestId);
  expect(response.headers.get('content-type')).toMatch(/application\/json/);
}

describe('authentication', () => {
  let fullKey: { key: string; accountId: string };
  let readOnlyKey: { key: string; accountId: string };
  let projectId: string;

  beforeAll(async () => {
    [fullKey, readOnlyKey] = await Promise.all([createApiKey(stackEnv), createApiKey(stackEnv, { scopes: ['data:read'] })]);
    const created = await apiClient(gatewayUrl, { authorization: `Bearer ${fullKey.key}` })('POST', '/v1/projects', {
      json: { name: 'Keyed' },
    });
    expect(created.status).toBe(200);
    projectId = created.body.id;
  });

  it('answers 401 without a credential, and with an unknown or malformed key', async () => {
    expectEnvelope(await anonymous('GET', '/v1/projects'), 401, 'UNAUTHENTICATED');
    expectEnvelope(
      await anonymous('GET', '/v1/projects', { headers: { authorization: 'Bearer aty_notarealkey' } }),
      401,
      'INVALID_API_KEY',
    );
    expectEnvelope(await anonymous('GET', '/v1/projects', { headers: { 'x-api-key': 'nope' } }), 401, 'INVALID_API_KEY');
    expectEnvelope(await anonymous('GET', '/v1/projects', { headers: { authorization: 'Bearer somethingelse' } }), 401, 'UNAUTHENTICATED');
  });

  it('accepts the key as a bearer token and as X-API-Key', async () => {
    const bearer = await anonymous('GET', `/v1/projects/${projectId}`, { headers: { authorization: `Bearer ${fullKey.key}` } });
    const header = await anonymous('GET', `/v1/projects/${projectId}`, { headers: { 'x-api-key': fullKey.key } });
    expect(bearer.status).toBe(200);
    expect(header.body).toEqual(bearer.body);
  });

  it('answers 403 when a key lacks a scope the operation needs', async () => {
    const readOnly = apiClient(gatewayUrl, { authorization: `Bearer ${readOnlyKey.key}` });
    const { body: ownProject } = await apiClient(gatewayUrl, { 'x-api-key': fullKey.key })('POST', '/v1/projects', {
      json: { name: 'scopes' },
    });
    const search = await readOnly('GET', `/v1/projects/${ownProject.id}/search?q=x`);
    expectEnvelope(search, 403, 'INSUFFICIENT_SCOPE');
    expect(search.body.error.details.missing).toEqual(['account:access']);
    expectEnvelope(await readOnly('POST', '/v1/projects', { json: { name: 'nope' } }), 403, 'INSUFFICIENT_SCOPE');
    expect((await readOnly('GET', '/v1/projects')).status).toBe(200);
  });

  it('health is public and every response carries X-Request-Id', async () => {
    const health = await anonymous('GET', '/v1/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok' });
    expect(health.headers.get('x-request-id')).toMatch(/\S+/);
    // Readiness tells the public only that it is ready; dependencies are for operators.
    const ready = await anonymous('GET', '/v1/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });
    const internal = apiClient(gatewayUrl, { 'x-internal-token': inject('stackEnv').INTERNAL_TOKEN! });
    const detailed = await internal('GET', '/v1/health/ready');
    expect(Object.keys(detailed.body.dependencies).length).toBeGreaterThan(0);
    expect(Object.values(detailed.body.dependencies).every((d: any) => d.ok)).toBe(true);
    const wrongToken = apiClient(gatewayUrl, { 'x-internal-token': 'not-the-token-at-all' });
    expect((await wrongToken('GET', '/v1/health/ready')).body).toEqual({ status: 'ready' });
  });
});

describe('errors always come in the envelope', () => {
  const api = apiClient(gatewayUrl, { 'x-demo-user': `errors-${Date.now()}` });

  it('unknown routes and wrong methods', async () => {
    expectEnvelope(await api('GET', '/v1/nothing-here'), 404, 'ROUTE_NOT_FOUND');
    expectEnvelope(await api('GET', '/elsewhere'), 404, 'ROUTE_NOT_FOUND');
    const wrongMethod = await api('DELETE', '/v1/projects');
    expectEnvelope(wrongMethod, 405, 'METHOD_NOT_ALLOWED');
    expect(wrongMethod.headers.get('allow')).toMatch(/GET/);
  });

  it('malformed JSON, oversize bodies and other media types', async () => {
    expectEnvelope(
      await api('POST', '/v1/projects', { rawBody: '{"name": ', headers: { 'content-type': 'application/json' } }),
      400,
      'MALFORMED_JSON',
    );
    expectEnvelope(await api('POST', '/v1/projects', { json: { name: 'x'.repeat(2_000_000) } }), 413, 'PAYLOAD_TOO_LARGE');
    const plainText = await api('POST', '/v1/projects', { rawBody: 'name=x', headers: { 'content-type': 'text/plain' } });
    expectEnvelope(plainText, 415, 'UNSUPPORTED_MEDIA_TYPE');
    // The type is quoted on both sides (issue 13).
    expect(plainText.body.error.message).toBe('Unsupported content-type "text/plain"; send application/json.');
  });

  it('validation failures are 422 with the field path', async () => {
    const blank = await api('POST', '/v1/projects', { json: { name: '   ' } });
    expectEnvelope(blank, 422, 'VALIDATION_FAILED');
    expect(blank.body.error.details.issues[0].path).toBe('name');
    const missing = await api('POST', '/v1/projects', { json: {} });
    expectEnvelope(missing, 422, 'VALIDATION_FAILED');
    const { body: project } = await api('POST', '/v1/projects', { json: { name: 'validation' } });
    const badItem = await api('POST', `/v1/projects/${project.id}/evidence`, {
      json: { items: [{ text: 'ok' }, { text: 'x', startMs: -5 }] },
    });
    expectEnvelope(badItem, 422, 'VALIDATION_FAILED');
    expect(badItem.body.error.details.issues[0].path).toBe('items.1.startMs');
    const tooMany = await api('POST', `/v1/projects/${project.id}/evidence`, {
      json: { items: Array.from({ length: 101 }, () => ({ text: 't' })) },
    });
    expectEnvelope(tooMany, 422, 'VALIDATION_FAILED');
  });

  it('search q: QUERY_REQUIRED when missing or blank, VALIDATION_FAILED when too long', async () => {
    const { body: project } = await api('POST', '/v1/projects', { json: { name: 'q rules' } });
    const before = await api('GET', '/v1/billing');
    expectEnvelope(await api('GET', `/v1/projects/${project.id}/search`), 422, 'QUERY_REQUIRED');
    expectEnvelope(await api('GET', `/v1/projects/${project.id}/search?q=%20%20`), 422, 'QUERY_REQUIRED');
    const long = await api('GET', `/v1/projects/${project.id}/search?q=${'a'.repeat(501)}`);
    expectEnvelope(long, 422, 'VALIDATION_FAILED');
    expect(long.body.error.details.issues[0].path).toBe('q');
    const ok = await api('GET', `/v1/projects/${project.id}/search?q=${'a'.repeat(500)}`);
    expect(ok.status).toBe(200);
    expect(ok.body.results).toEqual([]);
    // Only the valid search was charged; rejected input costs nothing.
    const after = await api('GET', '/v1/billing');
    expect(before.body.credits.balance - after.body.credits.balance).toBe(1);
  });
});
