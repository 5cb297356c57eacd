import { describe, expect, inject, it } from 'vitest';
import { apiClient, eventually } from '@vrs/testing/api-client';
import { startNatsServer } from '@vrs/testing/nats';
import { startGatewayProcess } from '@vrs/testing/processes';
import { makeTempDir } from '@vrs/testing/temp-dir';

describe('readiness', () => {
  it('reports each dependency and answers 503 when NATS goes down', async () => {
    // A private nats-server: stopping the shared one would break every other environment.
    const nats = await startNatsServer();
    const dataDir = makeTempDir('vrs-ready-');
    const gateway = await startGatewayProcess(
      'gateway-readiness',
      { ...inject('stackEnv'), SERVICES_MODE: 'inprocess', SERVE_HOSTED_SERVICES: 'false', NATS_URL: nats.url, DATA_DIR: dataDir },
      inject('logDir'),
    );
    try {
      const api = apiClient(gateway.url, { 'x-internal-token': inject('stackEnv').INTERNAL_TOKEN! });
      const ready = await api('GET', '/v1/health/ready');
      expect(ready.status).toBe(200);
      expect(Object.keys(ready.body.dependencies).sort()).toEqual([
        'agents',
        'billing',
        'bus',
        'monitoring',
        'provider',
        'rateLimitStore',
        'research',
        'trends',
      ]);

      await nats.stop();
      const down = await eventually(
        async () => {
          const response = await api('GET', '/v1/health/ready');
          return response.status === 503 ? response : undefined;
        },
        { what: 'readiness to fail', timeoutMs: 15_000 },
      );
      expect(down.body.error.code).toBe('SERVICE_UNAVAILABLE');
      expect(down.body.error.details.dependencies.bus.ok).toBe(false);
      // Liveness is not readiness: the process itself is still up.
      expect((await api('GET', '/v1/health')).status).toBe(200);
      // And it still serves: rate-limit counters are unreachable, which lets requests through rather than failing them.
      const served = await api('GET', '/v1/projects', { headers: { 'x-demo-user': 'during-outage' } });
      // The public sees that it is down, not why.
      const anonymous = await apiClient(gateway.url)('GET', '/v1/health/ready');
      expect(anonymous.status).toBe(503);
      expect(anonymous.body.error.code).toBe('SERVICE_UNAVAILABLE');
      expect(anonymous.body.error.details).toBeUndefined();
      expect(served.status).toBe(200);
    } finally {
      await gateway.stop();
      await nats.stop();
    }
  });
});
