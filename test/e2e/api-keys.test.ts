import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, createApiKey, eventually, type ApiCall } from '@vrs/testing/api-client';
import { startGatewayProcess, type RunningProcess } from '@vrs/testing/processes';

const gatewayUrl = inject('gatewayUrl');
const stackEnv = inject('stackEnv');
const logDir = inject('logDir');
const day = 24 * 60 * 60_000;

const bearer = (key: string) => apiClient(gatewayUrl, { authorization: `Bearer ${key}` });

function expectError(response: { status: number; body: any; text: string }, status: number, code: string) {
  expect(response.status, response.text).toBe(status);
  expect(response.body.error).toMatchObject({ code, message: expect.any(String), requestId: expect.any(String) });
}

describe('API keys over the API', () => {
  let owner: ApiCall;
  beforeAll(async () => {
    owner = bearer((await createApiKey(stackEnv)).key);
  });

  it('creates a key shown once, lists it without the secret, and the key works within its scopes', async () => {
    const created = await owner('POST', '/v1/api-keys', { json: { name: '  reader  ', scopes: ['data:read'] } });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^key_/),
      key: expect.stringMatching(/^aty_[0-9A-Za-z]{40}$/),
      prefix: created.body.key.slice(0, 12),
      name: 'reader',
      scopes: ['data:read'],
      createdAt: expect.any(String),
      expiresAt: null,
      lastUsedAt: null,
    });
    const list = await owner('GET', '/v1/api-keys?limit=100');
    expect(list.status).toBe(200);
    const { key: secret, ...listed } = created.body;
    expect(list.body.data).toContainEqual(listed);
    expect(list.text).not.toContain(secret.slice(12));

    const reader = bearer(secret);
    expect((await reader('GET', '/v1/projects')).status).toBe(200);
    const refused = await reader('POST', '/v1/projects', { json: { name: 'no' } });
    expectError(refused, 403, 'INSUFFICIENT_SCOPE');
    expect(refused.body.error.details.missing).toEqual(['data:write']);
    // Managing keys is account:manage.
    expectError(await reader('GET', '/v1/api-keys'), 403, 'INSUFFICIENT_SCOPE');
  });

  it('refuses bad input with precise 422s', async () => {
    const cases: [unknown, string, string][] = [
      [{ name: ' ', scopes: ['data:read'] }, 'VALIDATION_FAILED', 'name'],
      [{ name: 'x'.repeat(101), scopes: ['data:read'] }, 'VALIDATION_FAILED', 'name'],
      [{ name: 'k', scopes: [] }, 'VALIDATION_FAILED', 'scopes'],
      [{ name: 'k', scopes: ['data:read', 'data:read'] }, 'VALIDATION_FAILED', 'scopes'],
      [{ name: 'k', scopes: ['everything'] }, 'VALIDATION_FAILED', 'scopes.0'],
      [{ name: 'k', scopes: ['data:read'], expiresAt: new Date(Date.now() - 60_000).toISOString() }, 'VALIDATION_FAILED', 'expiresAt'],
      [{ name: 'k', scopes: ['data:read'], expiresAt: new Date(Date.now() + 400 * day).toISOString() }, 'VALIDATION_FAILED', 'expiresAt'],
      [{ name: 'k', scopes: ['data:read'], expiresAt: 'tomorrow' }, 'VALIDATION_FAILED', 'expiresAt'],
    ];
    for (const [body, code, path] of cases) {
      const response = await owner('POST', '/v1/api-keys', { json: body });
      expectError(response, 422, code);
      expect(response.body.error.details.issues[0].path, JSON.stringify(body)).toBe(path);
    }
    const unknown = await owner('POST', '/v1/api-keys', { json: { name: 'k', scopes: ['data:read'], admin: true } });
    expectError(unknown, 422, 'UNKNOWN_PARAMETER');
  });

  it('a key can create keys only with scopes it holds itself', async () => {
    const manager = bearer(
      (await owner('POST', '/v1/api-keys', { json: { name: 'manager', scopes: ['account:manage', 'data:read'] } })).body.key,
    );
    const escalation = await manager('POST', '/v1/api-keys', {
      json: { name: 'more', scopes: ['data:read', 'data:write', 'billing:read'] },
    });
    expectError(escalation, 403, 'INSUFFICIENT_SCOPE');
    expect(escalation.body.error.details.missing).toEqual(['data:write', 'billing:read']);
    const same = await manager('POST', '/v1/api-keys', { json: { name: 'less', scopes: ['data:read'] } });
    expect(same.status, same.text).toBe(200);
    // A demo user acts as the owner and may grant any scope.
    const demo = apiClient(gatewayUrl, { 'x-demo-user': `keys-${Date.now()}` });
    expect((await demo('POST', '/v1/api-keys', { json: { name: 'all', scopes: ['agents:run', 'monitors:write'] } })).status).toBe(200);
  });

  it('deletes a key: it stops working, leaves the list, and deleting again or another account’s is 404', async () => {
    const { body: victim } = await owner('POST', '/v1/api-keys', { json: { name: 'to delete', scopes: ['data:read'] } });
    const stranger = apiClient(gatewayUrl, { 'x-demo-user': `stranger-${Date.now()}` });
    expectError(await stranger('DELETE', `/v1/api-keys/${victim.id}`), 404, 'API_KEY_NOT_FOUND');
    expect((await bearer(victim.key)('GET', '/v1/projects')).status).toBe(200);

    expect((await owner('DELETE', `/v1/api-keys/${victim.id}`)).body).toEqual({ id: victim.id, deleted: true });
    // The stack runs with AUTH_CACHE_TTL_MS=0, so the refusal is immediate here (replicas below cache).
    expectError(await bearer(victim.key)('GET', '/v1/projects'), 401, 'INVALID_API_KEY');
    expectError(await owner('DELETE', `/v1/api-keys/${victim.id}`), 404, 'API_KEY_NOT_FOUND');
    expectError(await owner('DELETE', '/v1/api-keys/key_unknown'), 404, 'API_KEY_NOT_FOUND');
    const list = await owner('GET', '/v1/api-keys?limit=100');
    expect(list.body.data.map((key: { id: string }) => key.id)).not.toContain(victim.id);
  });

  it('an expired key is refused with 401 API_KEY_EXPIRED and stays listed', async () => {
    const expiresAt = new Date(Date.now() + 8_000).toISOString();
    const { body: short } = await owner('POST', '/v1/api-keys', { json: { name: 'short-lived', scopes: ['data:read'], expiresAt } });
    expect(short.expiresAt).toBe(expiresAt);
    expect((await bearer(short.key)('GET', '/v1/projects')).status).toBe(200);
    const refused = await eventually(
      async () => {
        const response = await bearer(short.key)('GET', '/v1/projects');
        return response.status === 401 ? response : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 250, what: 'the key to expire' },
    );
    expectError(refused, 401, 'API_KEY_EXPIRED');
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(expiresAt));
    const list = await owner('GET', '/v1/api-keys?limit=100');
    expect(list.body.data.map((key: { id: string }) => key.id)).toContain(short.id);
  });
});

describe('API keys on several gateway replicas', () => {
  const authCacheTtlMs = 3_000;
  /** `flushing` sends last uses every 200 ms; `batching` only when it stops. */
  let flushing: RunningProcess;
  let batching: RunningProcess;
  let owner: ApiCall;

  beforeAll(async () => {
    const env = { ...stackEnv, AUTH_CACHE_TTL_MS: String(authCacheTtlMs) };
    // One after the other: two gateways starting at once on a busy machine can outrun the start timeout.
    flushing = await startGatewayProcess('gateway-keys-flushing', { ...env, API_KEY_USE_FLUSH_INTERVAL_MS: '200' }, logDir);
    batching = await startGatewayProcess('gateway-keys-batching', { ...env, API_KEY_USE_FLUSH_INTERVAL_MS: '3600000' }, logDir);
    owner = bearer((await createApiKey(stackEnv)).key);
  });
  afterAll(async () => {
    await Promise.all([flushing, batching].filter(Boolean).map((replica) => replica.stop()));
  });

  const lastUsedAt = async (id: string) =>
    ((await owner('GET', '/v1/api-keys?limit=100')).body.data as { id: string; lastUsedAt: string | null }[]).find((key) => key.id === id)
      ?.lastUsedAt;

  // Runs first: the next test stops the batching replica.
  it('a deleted key is refused by every replica within AUTH_CACHE_TTL_MS', async () => {
    const { body: doomed } = await owner('POST', '/v1/api-keys', { json: { name: 'doomed', scopes: ['data:read'] } });
    const replicas = [flushing.url, batching.url].map((url) => apiClient(url, { authorization: `Bearer ${doomed.key}` }));
    // Both replicas verify the key and cache the verdict.
    for (const call of replicas) expect((await call('GET', '/v1/projects')).status).toBe(200);
    expect((await owner('DELETE', `/v1/api-keys/${doomed.id}`)).status).toBe(200);
    const revokedAt = Date.now();
    for (const call of replicas) {
      // A replica may accept the key while its cached verdict lives, never for a request started later.
      let lastAcceptedStart = 0;
      const refused = await eventually(
        async () => {
          const start = Date.now();
          const response = await call('GET', '/v1/projects');
          if (response.status === 200) lastAcceptedStart = start;
          return response.status === 401 ? response : undefined;
        },
        { timeoutMs: authCacheTtlMs + 20_000, intervalMs: 100, what: 'the replica to refuse the deleted key' },
      );
      expectError(refused, 401, 'INVALID_API_KEY');
      expect(lastAcceptedStart).toBeLessThanOrEqual(revokedAt + authCacheTtlMs);
    }
  });

  it('records lastUsedAt in batches: every interval, and when a gateway stops', async () => {
    const [{ body: periodic }, { body: atShutdown }] = await Promise.all([
      owner('POST', '/v1/api-keys', { json: { name: 'periodic', scopes: ['data:read'] } }),
      owner('POST', '/v1/api-keys', { json: { name: 'at shutdown', scopes: ['data:read'] } }),
    ]);
    const before = new Date().toISOString();
    for (let n = 0; n < 5; n++) {
      expect((await apiClient(flushing.url, { authorization: `Bearer ${periodic.key}` })('GET', '/v1/projects')).status).toBe(200);
      expect((await apiClient(batching.url, { authorization: `Bearer ${atShutdown.key}` })('GET', '/v1/projects')).status).toBe(200);
    }
    const recorded = await eventually(async () => (await lastUsedAt(periodic.id)) ?? undefined, {
      timeoutMs: 20_000,
      what: 'the periodic flush',
    });
    expect(recorded >= before).toBe(true);
    // The other replica has noted its uses but not sent them: no write happened per request.
    expect(await lastUsedAt(atShutdown.id)).toBeNull();
    await batching.stop();
    const flushedAtStop = await lastUsedAt(atShutdown.id);
    expect(flushedAtStop! >= before).toBe(true);
  });
});
