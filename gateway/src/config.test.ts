import { describe, expect, it } from 'vitest';
import { ConfigError } from '@vrs/kit';
import { loadGatewayConfig } from './config';

describe('gateway configuration', () => {
  it('reads each plan’s rate limit, defaulting to the catalogue', () => {
    const config = loadGatewayConfig({ PLAN_PRO_REQUESTS_PER_MINUTE: '42' });
    expect([config.PLAN_FREE_REQUESTS_PER_MINUTE, config.PLAN_PRO_REQUESTS_PER_MINUTE, config.PLAN_TEAM_REQUESTS_PER_MINUTE]).toEqual([
      600, 42, 12_000,
    ]);
    expect(() => loadGatewayConfig({ PLAN_FREE_REQUESTS_PER_MINUTE: '0' })).toThrow(/PLAN_FREE_REQUESTS_PER_MINUTE/);
  });

  it('refuses the removed RATE_LIMIT_PER_ACCOUNT instead of ignoring it, naming what replaced it', () => {
    expect(() => loadGatewayConfig({ RATE_LIMIT_PER_ACCOUNT: '100' })).toThrow(/RATE_LIMIT_PER_ACCOUNT.*PLAN_FREE_REQUESTS_PER_MINUTE/);
  });

  it('refuses settings that contradict each other as a ConfigError, which main reports without a stack trace (exit 78)', () => {
    const contradictions: [Record<string, string>, RegExp][] = [
      [{ RATE_LIMIT_PER_ACCOUNT: '100' }, /RATE_LIMIT_PER_ACCOUNT: removed/],
      [{ SEARCH_ENGINE: 'mongo' }, /SEARCH_ENGINE: mongo needs MONGODB_URL/],
      [{ HTTP_HEADERS_TIMEOUT_MS: '60000', HTTP_REQUEST_TIMEOUT_MS: '30000' }, /HTTP_HEADERS_TIMEOUT_MS: must not exceed/],
      [
        { NODE_ENV: 'production', INTERNAL_TOKEN: 'x'.repeat(32), PUBLIC_BASE_URL: 'https://vrs.example', DEMO_MODE: 'true' },
        /DEMO_MODE: must not/,
      ],
    ];
    for (const [env, message] of contradictions) {
      expect(() => loadGatewayConfig(env)).toThrow(message);
      expect(() => loadGatewayConfig(env)).toThrow(ConfigError);
    }
  });

  it('refuses to start in production without PUBLIC_BASE_URL, which mailed links are built from', () => {
    expect(() => loadGatewayConfig({ NODE_ENV: 'production', INTERNAL_TOKEN: 'x'.repeat(32) })).toThrow(/PUBLIC_BASE_URL/);
    expect(
      loadGatewayConfig({ NODE_ENV: 'production', INTERNAL_TOKEN: 'x'.repeat(32), PUBLIC_BASE_URL: 'https://vrs.example' }),
    ).toMatchObject({
      PUBLIC_BASE_URL: 'https://vrs.example',
    });
  });
});
