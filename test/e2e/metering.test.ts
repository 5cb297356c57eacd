import { describe, expect, inject, it } from 'vitest';
import { apiClient, createApiKey } from '@vrs/testing/api-client';

const gatewayUrl = inject('gatewayUrl');
const stackEnv = inject('stackEnv');

describe('credit metering', () => {
  it('answers 402 INSUFFICIENT_CREDITS with both credit headers once the balance runs out', async () => {
    const { key } = await createApiKey(stackEnv, { credits: 2 });
    const api = apiClient(gatewayUrl, { authorization: `Bearer ${key}` });
    const first = await api('POST', '/v1/projects', { json: { name: 'one' } });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-credits-charged')).toBe('1');
    expect(first.headers.get('x-credits-remaining')).toBe('1');
    const second = await api('POST', '/v1/projects', { json: { name: 'two' } });
    expect(second.headers.get('x-credits-remaining')).toBe('0');

    const refused = await api('POST', '/v1/projects', { json: { name: 'three' } });
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({ code: 'INSUFFICIENT_CREDITS', details: { balance: 0, required: 1 } });
    expect(refused.headers.get('x-credits-charged')).toBe('0');
    expect(refused.headers.get('x-credits-remaining')).toBe('0');
    // The refused operation did not happen.
    const list = await api('GET', '/v1/projects');
    expect(list.body.data.map((p: { name: string }) => p.name).sort()).toEqual(['one', 'two']);
  });

  it('the ledger equals the sum of X-Credits-Charged over a burst of concurrent requests, failures refunded', async () => {
    const api = apiClient(gatewayUrl, { 'x-demo-user': `burst-${Date.now()}` });
    const { body: project } = await api('POST', '/v1/projects', { json: { name: 'burst' } });
    const before = await api('GET', '/v1/billing');

    const requests = Array.from({ length: 60 }, (_, i) => {
      if (i % 5 === 0) return api('GET', `/v1/projects/00000000-0000-4000-8000-${String(i).padStart(12, '0')}/search?q=x`); // 404: refunded
      if (i % 3 === 0) return api('POST', `/v1/projects/${project.id}/evidence`, { json: { items: [{ text: `burst item ${i}` }] } });
      return api('GET', `/v1/projects/${project.id}/search?q=burst`);
    });
    const responses = await Promise.all(requests);
    const charged = responses.reduce((sum, r) => sum + Number(r.headers.get('x-credits-charged') ?? 0), 0);
    expect(responses.filter((r) => r.status === 404)).toHaveLength(12);
    expect(responses.filter((r) => r.status === 200)).toHaveLength(48);
    expect(charged).toBe(48);

    const after = await api('GET', '/v1/billing');
    expect(before.body.credits.balance - after.body.credits.balance).toBe(charged);
    expect(after.body.credits.reserved).toBe(0);

    // Walk the whole ledger: the entries made by the burst add up to exactly what was charged.
    const entries: { amount: number; kind: string; createdAt: string }[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await api('GET', `/v1/billing/ledger?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      entries.push(...page.body.data);
      if (!page.body.hasMore) break;
      cursor = page.body.nextCursor;
    }
    const total = entries.reduce((sum, entry) => sum + entry.amount, 0);
    expect(total).toBe(after.body.credits.balance);
    const grants = entries.filter((e) => e.kind === 'grant').reduce((sum, e) => sum + e.amount, 0);
    expect(grants - total).toBe(after.body.credits.spent);
  });

  it('reserves what a read will cost: at a balance of 1, saved data answers for 1; unsaved or refreshed is a 402 that charges nothing (issue 13)', async () => {
    const demo = apiClient(gatewayUrl, { 'x-demo-user': `saver-${Date.now()}` });
    expect((await demo('GET', '/v1/providers/youtube/videos/rCAS2eD-mcw')).status).toBe(200);
    expect((await demo('GET', '/v1/providers/youtube/videos/rCAS2eD-mcw/transcript')).status).toBe(200);

    for (const path of ['/v1/providers/youtube/videos/rCAS2eD-mcw', '/v1/providers/youtube/videos/rCAS2eD-mcw/transcript?detail=text']) {
      const { key } = await createApiKey(stackEnv, { credits: 1 });
      const api = apiClient(gatewayUrl, { authorization: `Bearer ${key}` });
      const saved = await api('GET', path);
      expect(saved.status, path).toBe(200);
      expect([saved.headers.get('x-credits-charged'), saved.headers.get('x-credits-remaining')]).toEqual(['1', '0']);
    }

    const { key } = await createApiKey(stackEnv, { credits: 1 });
    const api = apiClient(gatewayUrl, { authorization: `Bearer ${key}` });
    for (const path of ['/v1/providers/youtube/videos/neverSaved01', '/v1/providers/youtube/videos/rCAS2eD-mcw?refresh=true']) {
      const refused = await api('GET', path);
      expect(refused.status, path).toBe(402);
      expect(refused.body.error).toMatchObject({ code: 'INSUFFICIENT_CREDITS', details: { balance: 1, required: 2 } });
      expect([refused.headers.get('x-credits-charged'), refused.headers.get('x-credits-remaining')]).toEqual(['0', '1']);
    }
    const billing = await api('GET', '/v1/billing');
    expect(billing.body.credits).toMatchObject({ balance: 1, reserved: 0, spent: 0 });
  });
});
