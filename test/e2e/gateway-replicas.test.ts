import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient } from '@vrs/testing/api-client';
import { startGatewayProcess, type RunningProcess } from '@vrs/testing/processes';

type Api = ReturnType<typeof apiClient>;

const stackEnv = inject('stackEnv');
const logDir = inject('logDir');

describe('two gateway replicas in front of the same services', () => {
  const limit = 8;
  const windowMs = 60_000;
  let replicas: RunningProcess[] = [];

  beforeAll(async () => {
    // Demo accounts are on the free plan: its rate is the per-account limit. Every hit counted in NATS
    // KV before the request goes on (no local batches, ADR 0039), so the shared limit is exact.
    const env = {
      ...stackEnv,
      PLAN_FREE_REQUESTS_PER_MINUTE: String(limit),
      RATE_LIMIT_WINDOW_MS: String(windowMs),
      RATE_LIMIT_SYNC_INTERVAL_MS: '0',
    };
    replicas = await Promise.all([startGatewayProcess('gateway-a', env, logDir), startGatewayProcess('gateway-b', env, logDir)]);
  });
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
  });

  it('enforce one per-account limit together (shared NATS KV counters), with 429 in the envelope', async () => {
    const user = { 'x-demo-user': `limited-${Date.now()}` };
    const [a, b] = replicas.map((replica) => apiClient(replica.url, user)) as [Api, Api];
    // Fixed windows aligned to the clock (ADR 0005): start early in one, so all the requests count in the same window.
    const leftInWindow = windowMs - (Date.now() % windowMs);
    if (leftInWindow < 30_000) await new Promise((resolve) => setTimeout(resolve, leftInWindow + 100));
    const responses = [];
    for (let i = 0; i < limit + 4; i++) responses.push(await (i % 2 === 0 ? a : b)('GET', '/v1/projects'));

    const ok = responses.filter((r) => r.status === 200);
    const limited = responses.filter((r) => r.status === 429);
    expect(ok).toHaveLength(limit);
    expect(limited).toHaveLength(4);
    const rejection = limited[0]!;
    expect(rejection.body.error.code).toBe('RATE_LIMITED');
    expect(Number(rejection.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(rejection.headers.get('ratelimit-limit')).toBe(String(limit));
    expect(rejection.headers.get('ratelimit-remaining')).toBe('0');
    expect(ok[0]!.headers.get('ratelimit-remaining')).toBe(String(limit - 1));
    // Both replicas refused: the count was shared, not kept per process.
    expect(new Set(limited.map((r) => r.headers.get('x-request-id'))).size).toBe(4);
    const refusedBy = responses.map((r, i) => (r.status === 429 ? i % 2 : -1)).filter((side) => side >= 0);
    expect(new Set(refusedBy)).toEqual(new Set([0, 1]));

    // Another account is not affected.
    const other = await a('GET', '/v1/projects', { headers: { 'x-demo-user': `other-${Date.now()}` } });
    expect(other.status).toBe(200);
  });
});

describe('two gateway replicas counting rate-limit hits locally, reconciled every 100 ms (ADR 0039)', () => {
  const limit = 8;
  const windowMs = 60_000;
  const syncIntervalMs = 100;
  let replicas: RunningProcess[] = [];

  beforeAll(async () => {
    const env = {
      ...stackEnv,
      PLAN_FREE_REQUESTS_PER_MINUTE: String(limit),
      RATE_LIMIT_WINDOW_MS: String(windowMs),
      RATE_LIMIT_SYNC_INTERVAL_MS: String(syncIntervalMs),
    };
    replicas = await Promise.all([startGatewayProcess('gateway-c', env, logDir), startGatewayProcess('gateway-d', env, logDir)]);
  });
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
  });

  it('still enforce the shared limit, exceeded by at most what the other replica admitted since the last sync', {
    timeout: 90_000,
  }, async () => {
    const user = { 'x-demo-user': `batched-${Date.now()}` };
    const [c, d] = replicas.map((replica) => apiClient(replica.url, user)) as [Api, Api];
    const leftInWindow = windowMs - (Date.now() % windowMs);
    if (leftInWindow < 30_000) await new Promise((resolve) => setTimeout(resolve, leftInWindow + 100));
    const statuses: number[] = [];
    for (let i = 0; i < 2 * limit; i++) {
      statuses.push((await (i % 2 === 0 ? c : d)('GET', '/v1/projects')).status);
      // Spaced beyond the interval: each replica misses at most the other's hit since its own last sync.
      await new Promise((resolve) => setTimeout(resolve, syncIntervalMs * 1.5));
    }
    const admitted = statuses.filter((status) => status === 200).length;
    expect(admitted).toBeGreaterThanOrEqual(limit);
    expect(admitted).toBeLessThanOrEqual(limit + 2);
    expect(statuses.slice(-4)).toEqual([429, 429, 429, 429]);
  });
});

describe('a gateway with demo mode off', () => {
  it('refuses X-Demo-User with 401 DEMO_MODE_DISABLED', async () => {
    const gateway = await startGatewayProcess('gateway-no-demo', { ...stackEnv, DEMO_MODE: 'false' }, logDir);
    try {
      const response = await apiClient(gateway.url)('GET', '/v1/projects', { headers: { 'x-demo-user': 'someone' } });
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('DEMO_MODE_DISABLED');
    } finally {
      await gateway.stop();
    }
  });

  // Each refused start still loads the whole gateway first: on a loaded 2-core machine that takes a while.
  it('will not start with demo mode in production, naming the variable', async () => {
    await expect(startGatewayProcess('gateway-bad', { ...stackEnv, DEMO_MODE: 'true', NODE_ENV: 'production' }, logDir)).rejects.toThrow(
      /DEMO_MODE/,
    );
    await expect(startGatewayProcess('gateway-bad-port', { ...stackEnv, PORT: 'eighty' }, logDir)).rejects.toThrow(/PORT/);
  });
});
