import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnFreePort } from '@vrs/testing/http-server';
import { createMemoryWindowCounter } from '@vrs/bus';
import { createRateLimiters } from './limiters';

const internalToken = 'internal-token-0123456789';
let baseUrl: string;
let close: () => Promise<void>;

beforeAll(async () => {
  const limiters = createRateLimiters(createMemoryWindowCounter(), {
    windowMs: 60_000,
    perAccount: async () => 100,
    perIp: 2,
    internalToken,
  });
  const app = express();
  app.use((req, _res, next) => {
    req.requestId = 'req_test';
    next();
  });
  app.use(limiters.perIp);
  app.get('/', (_req, res) => {
    res.json({ ok: true });
  });
  ({ url: baseUrl, close } = await listenOnFreePort(app));
});
afterAll(() => close());

describe('the per-IP limit', () => {
  it("skips the gateway's own MCP tool calls (internal token), which would otherwise all count against the loopback address", async () => {
    const own = { 'x-internal-token': internalToken };
    for (let n = 0; n < 5; n++) expect((await fetch(baseUrl, { headers: own })).status).toBe(200);
    // Strangers from the same address are still limited, and a wrong token is a stranger.
    expect((await fetch(baseUrl)).status).toBe(200);
    expect((await fetch(baseUrl, { headers: { 'x-internal-token': 'internal-token-wrong-0000' } })).status).toBe(200);
    const limited = await fetch(baseUrl);
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
  });
});
