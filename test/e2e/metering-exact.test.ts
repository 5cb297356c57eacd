import { describe, expect, inject, it } from 'vitest';
import { apiClient, createApiKey, eventually, type ApiCall } from '@vrs/testing/api-client';

const gatewayUrl = inject('gatewayUrl');
const stackEnv = inject('stackEnv');

const remainingOf = (response: { headers: Headers }) => Number(response.headers.get('x-credits-remaining'));

/** Waits until no credits are held (jobs settled), and answers the account's figures. */
async function settledCredits(api: ApiCall) {
  return eventually(
    async () => {
      const { credits } = (await api('GET', '/v1/billing')).body;
      return credits.reserved === 0 ? credits : undefined;
    },
    { timeoutMs: 30_000, what: 'every hold settled' },
  );
}

// Issue 37, money items 1, 4 and 5 (ADR 0083): a reservation made elsewhere is judged on the real
// balance, the headers say what billing says, and the ledger reads as the operations charged.
describe('metering that tells the truth', () => {
  it('a 40-credit account: project, evidence, three searches, then at once an export and an import are 202, not 402; the ledger names each operation charged', {
    timeout: 90_000,
  }, async () => {
    const { key } = await createApiKey(stackEnv, { credits: 40 });
    const api = apiClient(gatewayUrl, { authorization: `Bearer ${key}` });
    const project = await api('POST', '/v1/projects', { json: { name: 'forty credits' } });
    expect(project.status, project.text).toBe(200);
    const evidence = await api('POST', `/v1/projects/${project.body.id}/evidence`, {
      json: { items: [{ text: 'Forty credits buy a project, evidence, searches and an export.' }] },
    });
    expect(evidence.status, evidence.text).toBe(200);
    for (let i = 0; i < 3; i++) {
      const search = await api('GET', `/v1/projects/${project.body.id}/search?q=credits`);
      expect(search.status, search.text).toBe(200);
    }
    expect(remainingOf(await api('GET', `/v1/projects/${project.body.id}/search?q=export`))).toBe(34);

    const exported = await api('POST', '/v1/exports', { json: { projectId: project.body.id, format: 'json' } });
    expect(exported.status, exported.text).toBe(202);
    expect(exported.headers.get('x-credits-charged')).toBe('0');
    expect(remainingOf(exported)).toBe(32);
    const imported = await api('POST', `/v1/projects/${project.body.id}/imports`, {
      json: { source: { type: 'video', id: 'vrsFixture1' } },
    });
    expect(imported.status, imported.text).toBe(202);
    expect(remainingOf(imported)).toBe(27);

    const credits = await settledCredits(api);
    expect(credits).toMatchObject({ balance: 27, spent: 13, granted: 40 });
    const { body: ledger } = await api('GET', '/v1/billing/ledger?limit=100');
    const lines = ledger.data.map((entry: { kind: string; amount: number; operation: string | null }) =>
      `${entry.kind} ${entry.amount} ${entry.operation ?? ''}`.trim(),
    );
    expect([...lines].sort()).toEqual(
      [
        'grant 40',
        'charge -1 createProject',
        'charge -1 addProjectEvidence',
        ...Array(4).fill('charge -1 searchPrivateEvidence'),
        'charge -2 createExport',
        'charge -5 createImport',
      ].sort(),
    );
    expect(JSON.stringify(ledger)).not.toContain('creditLease');
  });

  it('the ledger a customer reads lists each operation charged, never lease mechanics', async () => {
    const api = apiClient(gatewayUrl, { 'x-demo-user': `ledger-${Date.now()}` });
    const project = await api('POST', '/v1/projects', { json: { name: 'ledger' } });
    await api('POST', `/v1/projects/${project.body.id}/evidence`, { json: { items: [{ text: 'A line per charge.' }] } });
    await api('GET', `/v1/projects/${project.body.id}/search?q=charge`);
    await api('GET', `/v1/projects/${project.body.id}/search?q=line`);
    expect(await settledCredits(api)).toMatchObject({ spent: 4 });
    const { body: ledger } = await api('GET', '/v1/billing/ledger?limit=100');
    expect(
      ledger.data.map((entry: { kind: string; amount: number; operation: string | null; requestId: string | null }) => [
        entry.kind,
        entry.amount,
        entry.operation,
        entry.requestId === null ? null : 'request',
      ]),
    ).toEqual([
      ['charge', -1, 'searchPrivateEvidence', 'request'],
      ['charge', -1, 'searchPrivateEvidence', 'request'],
      ['charge', -1, 'addProjectEvidence', 'request'],
      ['charge', -1, 'createProject', 'request'],
      ['grant', 1000, null, 'request'],
    ]);
  });

  it('X-Credits-Remaining after an import’s 202 is the balance GET /v1/billing then reports', async () => {
    const api = apiClient(gatewayUrl, { 'x-demo-user': `remaining-${Date.now()}` });
    const project = await api('POST', '/v1/projects', { json: { name: 'remaining' } });
    expect(remainingOf(project)).toBe(999);
    const search = await api('GET', `/v1/projects/${project.body.id}/search?q=anything`);
    expect(remainingOf(search)).toBe(998);
    const imported = await api('POST', `/v1/projects/${project.body.id}/imports`, {
      json: { source: { type: 'video', id: 'vrsFixture1' } },
    });
    expect(imported.status, imported.text).toBe(202);
    const { credits } = (await api('GET', '/v1/billing')).body;
    // The import's 5 are held until its job ends, then charged in full: the balance is 993 either way.
    expect(remainingOf(imported)).toBe(993);
    expect(credits.balance).toBe(993);
  });
});
