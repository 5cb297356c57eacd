import { describe, expect, inject, it } from 'vitest';
import { apiClient, eventually, type ApiCall } from '@vrs/testing/api-client';

const gatewayUrl = inject('gatewayUrl');

function demoUser(name: string) {
  return apiClient(gatewayUrl, { 'x-demo-user': `${name}-${Math.random().toString(36).slice(2)}` });
}

/** What these checks read of an OpenAPI operation. */
interface OpenApiOperation {
  parameters?: { name: string }[];
  responses?: Record<string, any>;
}

const charged = (response: { headers: Headers }) => Number(response.headers.get('x-credits-charged') ?? 0);

/** Every item of a list, page by page, checking the convention on each page. */
async function walk(api: ApiCall, path: string, limit: number) {
  const items: { id: string; [field: string]: unknown }[] = [];
  let cursor: string | null = null;
  const separator = path.includes('?') ? '&' : '?';
  do {
    const page: { status: number; text: string; body: any } = await api(
      'GET',
      `${path}${separator}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(page.status, page.text).toBe(200);
    expect(Object.keys(page.body).sort()).toEqual(['data', 'hasMore', 'nextCursor']);
    expect(page.body.data.length).toBeLessThanOrEqual(limit);
    expect(page.body.nextCursor === null).toBe(!page.body.hasMore);
    items.push(...page.body.data);
    cursor = page.body.nextCursor;
  } while (cursor);
  return items;
}

describe('everything saved can be browsed and removed, by its owner only (issue 13 items 7 and 8)', () => {
  it('the OpenAPI document lists the new operations with their tags, and the one list convention', async () => {
    const { body: doc } = await apiClient(gatewayUrl)('GET', '/v1/openapi.json');
    const expected: [string, string, string, string][] = [
      ['/projects/{projectId}/evidence', 'get', 'listProjectEvidence', 'Projects'],
      ['/projects/{projectId}/evidence/{evidenceId}', 'get', 'getProjectEvidence', 'Projects'],
      ['/projects/{projectId}/evidence/{evidenceId}', 'patch', 'updateProjectEvidence', 'Projects'],
      ['/projects/{projectId}/evidence/{evidenceId}', 'delete', 'deleteProjectEvidence', 'Projects'],
      ['/projects/{projectId}', 'patch', 'updateProject', 'Projects'],
      ['/projects/{projectId}', 'delete', 'deleteProject', 'Projects'],
      ['/projects/{projectId}/jobs', 'get', 'listProjectJobs', 'Research'],
      ['/exports', 'get', 'listExports', 'Exports'],
      ['/comparisons', 'get', 'listComparisons', 'Research'],
      ['/operations', 'get', 'listOperations', 'Research'],
    ];
    for (const [path, method, operationId, tag] of expected) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toMatchObject({ operationId, tags: [tag] });
    }
    // Every list of ours answers a `listPage` document, so the convention is checked on each of them,
    // not only on the ones named here; the names make sure the search finds what it should.
    const schemaOf = (operation: OpenApiOperation) => {
      const ref: string | undefined = operation.responses?.['200']?.content?.['application/json']?.schema?.$ref;
      return ref ? doc.components.schemas[ref.replace('#/components/schemas/', '')] : undefined;
    };
    const lists = Object.entries(doc.paths as Record<string, Record<string, OpenApiOperation>>).flatMap(([path, operations]) =>
      Object.values(operations)
        .filter((operation) => 'hasMore' in (schemaOf(operation)?.properties ?? {}))
        .map((operation) => ({ path, operation })),
    );
    expect(lists.map(({ path }) => path)).toEqual(
      expect.arrayContaining([
        ...['/projects', '/billing/ledger', '/projects/{projectId}/evidence', '/exports', '/comparisons', '/operations'],
        ...['/monitors', '/monitors/{id}/checks', '/webhooks', '/webhooks/{id}/deliveries'],
      ]),
    );
    for (const { path, operation } of lists) {
      const names = (operation.parameters ?? []).map((parameter) => parameter.name);
      expect(names, path).toEqual(expect.arrayContaining(['limit', 'cursor']));
      expect(names, path).not.toContain('startingAfter');
      expect(Object.keys(schemaOf(operation).properties).sort(), path).toEqual(['data', 'hasMore', 'nextCursor']);
    }
    const everyParameter = Object.values(doc.paths as Record<string, Record<string, OpenApiOperation>>).flatMap((operations) =>
      Object.values(operations).flatMap((operation) => (operation.parameters ?? []).map((parameter) => parameter.name)),
    );
    expect(everyParameter).not.toContain('startingAfter');
    expect(Object.keys(doc.components.schemas.ProjectList.properties).sort()).toEqual(['data', 'hasMore', 'nextCursor']);
  });

  it('lists, changes and deletes evidence; search follows at once; strangers get 404 and change nothing', async () => {
    const api = demoUser('saved');
    const stranger = demoUser('stranger');
    const projectId = (await api('POST', '/v1/projects', { json: { name: 'Espresso' } })).body.id as string;
    const added = await api('POST', `/v1/projects/${projectId}/evidence`, {
      json: {
        items: [
          { text: 'Finer grinds extract espresso faster', sourceKey: 'note:grind' },
          { text: 'Espresso milk should stay below seventy degrees', sourceKey: 'note:milk' },
          { text: 'Espresso crema fades within a minute', sourceKey: 'note:crema' },
        ],
      },
    });
    const [grind, milk, crema] = added.body.items as [{ id: string }, { id: string }, { id: string }];
    await eventually(
      async () => ((await api('GET', `/v1/projects/${projectId}/search?q=espresso`)).body.results.length === 3 ? true : undefined),
      {
        what: 'the evidence to be searchable',
      },
    );

    const listed = await walk(api, `/v1/projects/${projectId}/evidence`, 2);
    expect(listed.map((item) => item.id)).toEqual([crema.id, milk.id, grind.id]);
    expect(listed[2]).toEqual(added.body.items[0]);
    const read = await api('GET', `/v1/projects/${projectId}/evidence/${grind.id}`);
    expect(read.status).toBe(200);
    expect(charged(read)).toBe(0);

    for (const [method, path, json] of [
      ['GET', `/v1/projects/${projectId}/evidence`, undefined],
      ['GET', `/v1/projects/${projectId}/evidence/${grind.id}`, undefined],
      ['PATCH', `/v1/projects/${projectId}/evidence/${grind.id}`, { text: 'stolen' }],
      ['DELETE', `/v1/projects/${projectId}/evidence/${grind.id}`, undefined],
      ['PATCH', `/v1/projects/${projectId}`, { name: 'stolen' }],
      ['DELETE', `/v1/projects/${projectId}`, undefined],
      ['GET', `/v1/projects/${projectId}/jobs`, undefined],
      ['GET', `/v1/exports?projectId=${projectId}`, undefined],
    ] as const) {
      const response = await stranger(method, path, json ? { json } : {});
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.error.code).toBe('PROJECT_NOT_FOUND');
    }

    const patched = await api('PATCH', `/v1/projects/${projectId}/evidence/${grind.id}`, {
      json: { text: 'Tamping pressure matters for espresso', startMs: 5000 },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({
      id: grind.id,
      sourceKey: 'note:grind',
      text: 'Tamping pressure matters for espresso',
      startMs: 5000,
    });
    expect(charged(patched)).toBe(1);
    expect((await api('GET', `/v1/projects/${projectId}/search?q=grinds`)).body.results).toEqual([]);
    expect((await api('GET', `/v1/projects/${projectId}/search?q=tamping`)).body.results.map((r: { id: string }) => r.id)).toEqual([
      grind.id,
    ]);

    const empty = await api('PATCH', `/v1/projects/${projectId}/evidence/${grind.id}`, { json: {} });
    expect(empty.status).toBe(422);
    expect(charged(empty)).toBe(0);

    const deleted = await api('DELETE', `/v1/projects/${projectId}/evidence/${milk.id}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toEqual({ id: milk.id, deleted: true });
    expect(charged(deleted)).toBe(0);
    const after = await api('GET', `/v1/projects/${projectId}/search?q=espresso`);
    expect(after.body.results.map((r: { id: string }) => r.id).sort()).toEqual([grind.id, crema.id].sort());
    const again = await api('DELETE', `/v1/projects/${projectId}/evidence/${milk.id}`);
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('EVIDENCE_NOT_FOUND');

    const renamed = await api('PATCH', `/v1/projects/${projectId}`, { json: { name: 'Espresso, renamed' } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ id: projectId, name: 'Espresso, renamed' });
    expect((await api('GET', `/v1/projects/${projectId}`)).body.name).toBe('Espresso, renamed');
  });

  it('deleting a project removes its evidence, jobs and exports: each reads 404 afterwards', async () => {
    const api = demoUser('delete-project');
    const projectId = (await api('POST', '/v1/projects', { json: { name: 'Doomed' } })).body.id as string;
    const keptId = (await api('POST', '/v1/projects', { json: { name: 'Kept' } })).body.id as string;
    await api('POST', `/v1/projects/${projectId}/evidence`, { json: { items: [{ text: 'soon gone' }] } });
    const job = await api('POST', `/v1/projects/${projectId}/imports`, { json: { source: { type: 'video', id: 'vrsFixture1' } } });
    expect(job.status, job.text).toBe(202);
    await eventually(
      async () => (['completed', 'failed'].includes((await api('GET', `/v1/jobs/${job.body.id}`)).body.status) ? true : undefined),
      {
        timeoutMs: 20_000,
        what: 'the import to finish',
      },
    );
    const exported = await api('POST', '/v1/exports', { json: { projectId, format: 'json' } });
    expect(exported.status, exported.text).toBeLessThan(300);
    await eventually(async () => ((await api('GET', `/v1/exports/${exported.body.id}`)).body.status === 'completed' ? true : undefined), {
      what: 'the export to be ready',
    });
    const keptExport = await api('POST', '/v1/exports', { json: { projectId: keptId, format: 'csv' } });

    expect((await walk(api, `/v1/projects/${projectId}/jobs`, 10)).map((item) => item.id)).toEqual([job.body.id]);
    expect((await walk(api, '/v1/exports', 1)).map((item) => item.id)).toEqual([keptExport.body.id, exported.body.id]);
    expect((await walk(api, `/v1/exports?projectId=${keptId}`, 10)).map((item) => item.id)).toEqual([keptExport.body.id]);
    expect((await walk(api, `/v1/projects/${projectId}/evidence`, 100)).length).toBeGreaterThan(1);

    const deleted = await api('DELETE', `/v1/projects/${projectId}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toEqual({ id: projectId, deleted: true });
    expect(charged(deleted)).toBe(0);

    for (const [path, code] of [
      [`/v1/projects/${projectId}`, 'PROJECT_NOT_FOUND'],
      [`/v1/projects/${projectId}/evidence`, 'PROJECT_NOT_FOUND'],
      [`/v1/projects/${projectId}/jobs`, 'PROJECT_NOT_FOUND'],
      [`/v1/projects/${projectId}/search?q=gone`, 'PROJECT_NOT_FOUND'],
      [`/v1/jobs/${job.body.id}`, 'JOB_NOT_FOUND'],
      [`/v1/exports/${exported.body.id}`, 'EXPORT_NOT_FOUND'],
      [`/v1/exports/${exported.body.id}/download`, 'EXPORT_NOT_FOUND'],
    ] as const) {
      const response = await api('GET', path);
      expect(response.status, path).toBe(404);
      expect(response.body.error.code, path).toBe(code);
    }
    expect((await walk(api, '/v1/exports', 10)).map((item) => item.id)).toEqual([keptExport.body.id]);
    expect((await walk(api, '/v1/projects', 10)).map((item) => item.id)).toEqual([keptId]);
    expect((await api('DELETE', `/v1/projects/${projectId}`)).status).toBe(404);
  });

  it('lists answer an unknown cursor with 422 INVALID_CURSOR, and a new account’s lists are empty', async () => {
    const api = demoUser('lists');
    for (const path of [
      '/v1/projects',
      '/v1/billing/ledger',
      '/v1/exports',
      '/v1/comparisons',
      '/v1/operations',
      '/v1/monitors',
      '/v1/webhooks',
    ]) {
      const response = await api('GET', `${path}?cursor=bm90LWEtY3Vyc29y`);
      expect(response.status, path).toBe(422);
      expect(response.body.error.code, path).toBe('INVALID_CURSOR');
    }
    for (const path of ['/v1/projects', '/v1/exports', '/v1/comparisons', '/v1/operations', '/v1/monitors', '/v1/webhooks']) {
      expect((await api('GET', path)).body, path).toEqual({ data: [], hasMore: false, nextCursor: null });
    }
    await api('POST', '/v1/projects', { json: { name: 'one' } });
    const ledger = (await api('GET', '/v1/billing/ledger?limit=1')).body;
    expect(ledger.nextCursor).toEqual(expect.any(String));
    // A cursor of one list is refused by another.
    const refused = await api('GET', `/v1/exports?cursor=${encodeURIComponent(ledger.nextCursor)}`);
    expect(refused.body.error.code).toBe('INVALID_CURSOR');
  });
});
