import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { apiClient, createApiKey, eventually } from '@vrs/testing/api-client';

describe('the access log', () => {
  it('writes one line per request with its id, status, time and account, and never the key or the query', async () => {
    const { key, accountId } = await createApiKey(inject('stackEnv'));
    const requestId = `access-log-${Date.now()}`;
    const api = apiClient(inject('gatewayUrl'), { authorization: `Bearer ${key}`, 'x-request-id': requestId });
    // Refused for its undeclared parameter, and logged like any request, without its query.
    const response = await api('GET', '/v1/projects?limit=5&secret-looking=shh');
    expect(response.status).toBe(422);

    const logFile = join(inject('logDir'), 'gateway.log');
    const line = await eventually(
      async () =>
        (await readFile(logFile, 'utf8'))
          .split('\n')
          .filter((text) => text.includes(requestId))
          .map((text) => JSON.parse(text))
          .find((entry) => entry.msg === 'request completed'),
      { what: 'the access log line' },
    );
    expect(line).toMatchObject({
      component: 'access',
      requestId,
      accountId,
      req: { method: 'GET', path: '/v1/projects' },
      res: { statusCode: 422 },
    });
    expect(line.responseTime).toBeGreaterThanOrEqual(0);
    const log = await readFile(logFile, 'utf8');
    expect(log).not.toContain(key);
    expect(log).not.toContain('secret-looking');
  });
});
