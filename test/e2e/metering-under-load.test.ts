import { describe, expect, inject, it } from 'vitest';
import { apiClient, createApiKey } from '@vrs/testing/api-client';
import { driveMeteredLoad, ledgerCheck } from '@vrs/testing/metering-load';

const gatewayUrl = inject('gatewayUrl');
const stackEnv = inject('stackEnv');

// Issue 15 goal 4 at a small scale (bench/metering-load runs 100 connections for 60 s): with credit
// leases and batched rate limits on (the stack's defaults), the books still balance exactly.
describe('metering under concurrent load', () => {
  it('the ledger equals the sum of X-Credits-Charged, no balance goes negative, and every 402 carries both headers', {
    timeout: 60_000,
  }, async () => {
    const credits = 60;
    const { key } = await createApiKey(stackEnv, { credits });
    const headers = { authorization: `Bearer ${key}` };
    const api = apiClient(gatewayUrl, headers);
    const created = await api('POST', '/v1/projects', { json: { name: 'under load' } });
    expect(created.status).toBe(200);
    const evidence = await api('POST', `/v1/projects/${created.body.id}/evidence`, { json: { items: [{ text: 'load test evidence' }] } });
    expect(evidence.status).toBe(200);

    const outcome = await driveMeteredLoad({
      gatewayUrl,
      headers,
      projectId: created.body.id,
      connections: 24,
      durationMs: 3_000,
      untilRefusedWithinMs: 30_000,
    });
    // The balance ran out during the run, so refusals were made under concurrency too.
    expect(outcome.byStatus[402]).toBeGreaterThan(0);
    expect(outcome.byStatus[404]).toBeGreaterThan(0);
    expect(outcome.headerViolations).toEqual([]);
    expect(outcome.lowestRemaining).toBeGreaterThanOrEqual(0);

    const before = Number(created.headers.get('x-credits-charged')) + Number(evidence.headers.get('x-credits-charged'));
    const books = await ledgerCheck(gatewayUrl, headers);
    expect(books.reserved).toBe(0);
    expect(books.balance).toBeGreaterThanOrEqual(0);
    expect(books.spent).toBe(before + outcome.charged);
    expect(books.balance).toBe(credits - books.spent);
    expect(books.ledgerSum).toBe(books.balance);
  });
});
