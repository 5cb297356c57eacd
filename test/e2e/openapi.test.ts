import { describe, expect, inject, it } from 'vitest';
import { apiClient } from '@vrs/testing/api-client';

const api = apiClient(inject('gatewayUrl'));

describe('OpenAPI document and reference page', () => {
  it('describes the contract: version, license, security schemes, operation ids, tags and statuses', async () => {
    const { status, body: doc } = await api('GET', '/v1/openapi.json');
    expect(status).toBe(200);
    expect(doc.openapi).toMatch(/^3\.1/);
    expect(doc.info).toMatchObject({ version: '1.0.0', license: { identifier: 'Apache-2.0' } });
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      'apiKey',
      'bearerApiKey',
      'cliSession',
      'demoUser',
      'sessionCookie',
    ]);

    const search = doc.paths['/projects/{projectId}/search'].get;
    expect(search.operationId).toBe('searchPrivateEvidence');
    expect(search.tags).toEqual(['Discovery']);
    expect(Object.keys(search.responses).sort()).toEqual(['200', '401', '402', '403', '404', '422', '429', '500', '503']);
    expect(search.responses['402'].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorEnvelope');
    expect(Object.keys(search.responses['200'].headers)).toEqual(expect.arrayContaining(['X-Credits-Charged', 'X-Credits-Remaining']));
    const q = search.parameters.find((p: { name: string }) => p.name === 'q');
    expect(q).toMatchObject({ in: 'query', required: true, schema: { maxLength: 500 } });
    expect(search.security.map((s: object) => Object.keys(s)[0]).sort()).toEqual([
      'apiKey',
      'bearerApiKey',
      'cliSession',
      'demoUser',
      'sessionCookie',
    ]);
    // The contract's scopes for project search, in each requirement, for tools and in words (ADR 0031).
    for (const requirement of search.security) expect(Object.values(requirement)).toEqual([['data:read', 'account:access']]);
    expect(search['x-required-scopes']).toEqual(['data:read', 'account:access']);
    expect(search.description).toContain('Keys and CLI sessions need: `data:read`, `account:access`.');

    // A restricted video answers its own code and status (ADR 0017).
    const transcript = doc.paths['/providers/{provider}/videos/{id}/transcript'].get;
    expect(Object.keys(transcript.responses)).toEqual(expect.arrayContaining(['403', '404', '409', '451']));
    expect(transcript.responses['451'].description).toMatch(/VIDEO_REGION_BLOCKED/);
    expect(doc.components.schemas.ErrorEnvelope.properties.error.properties.code.enum).toEqual(
      expect.arrayContaining([
        'VIDEO_AGE_RESTRICTED',
        'VIDEO_PRIVATE',
        'VIDEO_MEMBERS_ONLY',
        'VIDEO_PAID',
        'VIDEO_REGION_BLOCKED',
        'VIDEO_LIVE_NOT_ENDED',
      ]),
    );

    expect(doc.paths['/projects'].post).toMatchObject({ operationId: 'createProject', tags: ['Projects'] });
    expect(doc.paths['/health'].get.security).toEqual([]);
    // Every error response points at the one envelope; no generator leftovers remain.
    expect(Object.keys(doc.components.schemas).filter((name) => name.startsWith('error.'))).toEqual([]);
    expect(JSON.stringify(doc)).not.toContain('#/components/schemas/error.');
    expect(doc.paths['/billing'].get.tags).toEqual(['Billing']);
  });

  it('lists every Monitoring operation (issue 9) with its error statuses and codes', async () => {
    const { body: doc } = await api('GET', '/v1/openapi.json');
    const authenticated = ['401', '403', '429', '500', '503'];
    const expected: [path: string, method: string, operationId: string, errors: string[]][] = [
      ['/monitors', 'post', 'createMonitor', ['422']],
      ['/monitors', 'get', 'listMonitors', ['422']],
      ['/monitors/{id}', 'get', 'getMonitor', ['404', '422']],
      ['/monitors/{id}', 'patch', 'updateMonitor', ['404', '422']],
      ['/monitors/{id}', 'delete', 'deleteMonitor', ['404', '422']],
      ['/monitors/{id}/check', 'post', 'checkMonitor', ['404', '409', '422']],
      ['/monitors/{id}/checks', 'get', 'listMonitorChecks', ['404', '422']],
      ['/notifications', 'get', 'listNotifications', []],
      ['/notifications/{id}/read', 'post', 'markNotificationRead', ['404', '422']],
      ['/digests/preferences', 'get', 'getDigestPreferences', []],
      ['/digests/preferences', 'put', 'putDigestPreferences', ['422']],
      ['/webhooks', 'post', 'createWebhook', ['422']],
      ['/webhooks', 'get', 'listWebhooks', ['422']],
      ['/webhooks/{id}', 'delete', 'deleteWebhook', ['404', '422']],
      ['/webhooks/{id}/deliveries', 'get', 'listWebhookDeliveries', ['404', '422']],
    ];
    for (const [path, method, operationId, errors] of expected) {
      const operation = doc.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toMatchObject({ operationId, tags: ['Monitoring'] });
      const statuses = Object.keys(operation.responses);
      expect(statuses.filter((status) => Number(status) >= 400).sort(), operationId).toEqual([...authenticated, ...errors].sort());
      expect(
        statuses.some((status) => Number(status) < 300),
        operationId,
      ).toBe(true);
    }
    expect(
      Object.values(doc.paths)
        .flatMap((item) => Object.values(item as object))
        .filter((op) => op.tags?.includes('Monitoring')),
    ).toHaveLength(expected.length);
    expect(doc.paths['/monitors/{id}/check'].post.responses['202']).toBeDefined();
    expect(doc.components.schemas.ErrorEnvelope.properties.error.properties.code.enum).toEqual(
      expect.arrayContaining([
        'MONITOR_NOT_FOUND',
        'NOTIFICATION_NOT_FOUND',
        'WEBHOOK_NOT_FOUND',
        'MONITOR_DISABLED',
        'MONITOR_QUERY_REQUIRED',
        'MONITOR_INTERVAL_INVALID',
        'WEBHOOK_URL_INVALID',
        'TIMEZONE_INVALID',
      ]),
    );
    expect(doc.paths['/monitors'].post.description).toMatch(/MONITOR_QUERY_REQUIRED.*MONITOR_INTERVAL_INVALID/);
    expect(doc.paths['/monitors/{id}/check'].post.description).toMatch(/MONITOR_DISABLED/);
  });

  it('serves an interactive reference page that loads the document', async () => {
    const page = await api('GET', '/v1/docs');
    expect(page.status).toBe(200);
    expect(page.text).toContain('/v1/openapi.json');
    const script = await api('GET', '/v1/docs/assets/swagger-ui-bundle.js');
    expect(script.status).toBe(200);
    expect(script.text.length).toBeGreaterThan(100_000);
  });

  it('serves the same working page at /v1/docs/ (trailing slash): every asset it names loads from there (issue 13)', async () => {
    const page = await api('GET', '/v1/docs/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const assets = [...page.text.matchAll(/(?:href|src)="([^"]+)"/g)].map((match) => match[1]!);
    // The stylesheet, the bundle and the script starting it (a file: the CSP allows no inline script).
    expect(assets).toHaveLength(3);
    for (const asset of assets) {
      const loaded = await fetch(new URL(asset, `${inject('gatewayUrl')}/v1/docs/`));
      expect(loaded.status, asset).toBe(200);
      await loaded.arrayBuffer();
    }
  });
});
