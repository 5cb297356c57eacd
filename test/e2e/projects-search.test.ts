import { describe, expect, inject, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { apiClient, eventually } from '@vrs/testing/api-client';

const gatewayUrl = inject('gatewayUrl');

function demoUser(name: string) {
  return apiClient(gatewayUrl, { 'x-demo-user': `${name}-${Math.random().toString(36).slice(2)}` });
}

describe('projects and evidence search (the first vertical slice)', () => {
  it('creates a project, stores evidence, finds it ranked by relevance, and charges credits', async () => {
    const api = demoUser('slice');
    const created = await api('POST', '/v1/projects', { json: { name: 'Espresso research' } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'Espresso research' });
    expect(created.body.id).toMatch(/^[0-9a-f-]{36}$/);
    const charged = Number(created.headers.get('x-credits-charged'));
    const remainingAfterCreate = Number(created.headers.get('x-credits-remaining'));
    expect(charged).toBeGreaterThanOrEqual(0);

    const projectId = created.body.id;
    const added = await api('POST', `/v1/projects/${projectId}/evidence`, {
      json: {
        items: [
          {
            text: 'Grind size controls extraction: finer grinds extract espresso faster.',
            sourceKey: 'note:grind',
            entityId: 'vid1',
            startMs: 1200,
          },
          { text: 'Milk steaming temperature should stay below seventy degrees.', sourceKey: 'note:milk' },
          {
            text: 'Espresso espresso espresso: the espresso shot and espresso crema.',
            sourceKey: 'note:crema',
            entityId: 'vid2',
            startMs: 0,
          },
        ],
      },
    });
    expect(added.status).toBe(200);
    expect(added.body.items).toHaveLength(3);
    expect(Number(added.headers.get('x-credits-remaining'))).toBeLessThan(remainingAfterCreate);

    const search = await eventually(
      async () => {
        const response = await api('GET', `/v1/projects/${projectId}/search?q=espresso`);
        return response.status === 200 && response.body.results.length >= 2 ? response : undefined;
      },
      { what: 'evidence to be indexed' },
    );
    expect(search.body.query).toBe('espresso');
    const [best, second] = search.body.results;
    expect(best).toMatchObject({ sourceKey: 'note:crema', entityId: 'vid2', startMs: 0, index: 1 });
    expect(second.index).toBe(2);
    expect(best.score).toBeGreaterThan(second.score);
    expect(search.body.results.map((r: { text: string }) => r.text)).not.toContain(
      'Milk steaming temperature should stay below seventy degrees.',
    );
    expect(search.headers.get('x-credits-charged')).toBe('1');

    const again = await api('GET', `/v1/projects/${projectId}/search?q=espresso`);
    expect(again.body.results.map((r: { id: string }) => r.id)).toEqual(search.body.results.map((r: { id: string }) => r.id));
    expect(Number(again.headers.get('x-credits-remaining'))).toBe(Number(search.headers.get('x-credits-remaining')) - 1);
  });

  it('updates an item in place when its sourceKey is posted again', async () => {
    const api = demoUser('upsert');
    const { body: project } = await api('POST', '/v1/projects', { json: { name: 'Upserts' } });
    const first = await api('POST', `/v1/projects/${project.id}/evidence`, {
      json: { items: [{ text: 'original wording about tampers', sourceKey: 'k1' }] },
    });
    const second = await api('POST', `/v1/projects/${project.id}/evidence`, {
      json: { items: [{ text: 'revised wording about baskets', sourceKey: 'k1' }] },
    });
    expect(second.body.items[0].id).toBe(first.body.items[0].id);

    const found = await eventually(async () => {
      const response = await api('GET', `/v1/projects/${project.id}/search?q=baskets`);
      return response.body.results?.length === 1 ? response : undefined;
    });
    expect(found.body.results[0]).toMatchObject({ id: first.body.items[0].id, text: 'revised wording about baskets' });
    const stale = await api('GET', `/v1/projects/${project.id}/search?q=tampers`);
    expect(stale.body.results).toEqual([]);
  });

  it("lists only the caller's projects and hides other accounts' projects behind 404", async () => {
    const alice = demoUser('alice');
    const bob = demoUser('bob');
    const { body: aliceProject } = await alice('POST', '/v1/projects', { json: { name: 'Alice only' } });
    await bob('POST', '/v1/projects', { json: { name: 'Bob only' } });

    const list = await alice('GET', '/v1/projects');
    expect(list.status).toBe(200);
    expect(list.body.data.map((p: { name: string }) => p.name)).toEqual(['Alice only']);

    for (const [method, path] of [
      ['GET', `/v1/projects/${aliceProject.id}`],
      ['GET', `/v1/projects/${aliceProject.id}/search?q=anything`],
      ['POST', `/v1/projects/${aliceProject.id}/evidence`],
    ] as const) {
      const response = await bob(method, path, method === 'POST' ? { json: { items: [{ text: 'x' }] } } : {});
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.error.code).toBe('PROJECT_NOT_FOUND');
    }
  });

  it('carries one request id from the gateway through the research service into the indexing event', async () => {
    const api = demoUser('trace');
    const { body: project } = await api('POST', '/v1/projects', { json: { name: 'Tracing' } });
    const requestId = `trace-${Date.now()}`;
    const added = await api('POST', `/v1/projects/${project.id}/evidence`, {
      headers: { 'x-request-id': requestId },
      json: { items: [{ text: 'traced item' }] },
    });
    expect(added.headers.get('x-request-id')).toBe(requestId);
    const lines = await eventually(
      async () => {
        const log = await readFile(inject('researchLogFile'), 'utf8');
        const mine = log.split('\n').filter((line) => line.includes(`"requestId":"${requestId}"`));
        // The indexer runs from the NATS event, in another process than the gateway that took the request.
        return mine.some((line) => line.includes('"msg":"evidence indexed"')) ? mine : undefined;
      },
      { what: 'research log lines with the request id' },
    );
    expect(lines.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'evidence indexed')).toMatchObject({
      projectId: project.id,
      indexed: 1,
    });
  });
});
