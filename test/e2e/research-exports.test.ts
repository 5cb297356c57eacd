import { describe, expect, inject, it } from 'vitest';
import { apiClient, eventually, type ApiCall } from '@vrs/testing/api-client';

const gatewayUrl = inject('gatewayUrl');

function demoUser(name: string) {
  return apiClient(gatewayUrl, { 'x-demo-user': `${name}-${Math.random().toString(36).slice(2)}` });
}

const items = [
  { text: 'Plain note about grind size.', sourceKey: 'note:grind', entityId: 'vid1', startMs: 61_000 },
  { text: 'A note with "quotes", commas,\nand a line break.', sourceKey: 'note:tricky' },
];

/** Creates an export and polls it until ready. */
async function readyExport(api: ApiCall, projectId: string, format: string) {
  const { spent } = (await api('GET', '/v1/billing')).body.credits;
  const created = await api('POST', '/v1/exports', { json: { projectId, format } });
  // Work that finishes later answers 202, like an import (issue 13).
  expect(created.status, created.text).toBe(202);
  expect(created.body).toMatchObject({ id: expect.stringMatching(/^exp_/), projectId, format, status: 'pending' });
  // Held, not charged: the export settles its price once its file is ready (ADR 0019).
  expect(Number(created.headers.get('x-credits-charged'))).toBe(0);
  const ready = await eventually(
    async () => {
      const record = await api('GET', `/v1/exports/${created.body.id}`);
      return record.body.status === 'completed' ? record.body : undefined;
    },
    { what: 'the export to be ready' },
  );
  await eventually(
    async () => {
      const credits = (await api('GET', '/v1/billing')).body.credits;
      return credits.reserved === 0 && credits.spent === spent + 2 ? credits : undefined;
    },
    { what: 'the export to be charged once its file is ready' },
  );
  return ready;
}

/** RFC 4180 rows, enough for the test's own fields. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  return rows;
}

describe('project exports', () => {
  it('writes json, csv and markdown files whose content is the project’s evidence, downloaded as attachments', async () => {
    const api = demoUser('exports');
    const projectId = (await api('POST', '/v1/projects', { json: { name: 'Espresso "notes"' } })).body.id;
    const added = (await api('POST', `/v1/projects/${projectId}/evidence`, { json: { items } })).body.items as {
      id: string;
      sourceKey: string;
    }[];

    const json = await readyExport(api, projectId, 'json');
    expect(json).toMatchObject({ status: 'completed', itemCount: 2 });
    const jsonFile = await api('GET', `/v1/exports/${json.id}/download`);
    expect(jsonFile.status, jsonFile.text).toBe(200);
    expect(jsonFile.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(jsonFile.headers.get('content-disposition')).toBe(`attachment; filename="Espresso-notes-${json.id}.json"`);
    expect(Buffer.byteLength(jsonFile.text)).toBe(json.sizeBytes);
    expect(jsonFile.body).toMatchObject({ project: { id: projectId, name: 'Espresso "notes"' }, itemCount: 2 });
    const byKey = new Map(jsonFile.body.evidence.map((item: { sourceKey: string }) => [item.sourceKey, item]));
    for (const [i, item] of items.entries()) expect(byKey.get(item.sourceKey)).toMatchObject({ ...item, id: added[i]!.id });

    const csv = await readyExport(api, projectId, 'csv');
    const csvFile = await api('GET', `/v1/exports/${csv.id}/download`);
    expect(csvFile.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const [header, ...rows] = parseCsv(csvFile.text);
    expect(header).toEqual(['id', 'sourceKey', 'provider', 'entityId', 'startMs', 'text', 'createdAt', 'updatedAt']);
    expect(rows.map((row) => [row[1], row[3], row[4], row[5]]).sort()).toEqual([
      ['note:grind', 'vid1', '61000', items[0]!.text],
      ['note:tricky', '', '', items[1]!.text],
    ]);

    const markdown = await readyExport(api, projectId, 'markdown');
    const markdownFile = await api('GET', `/v1/exports/${markdown.id}/download`);
    expect(markdownFile.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(markdownFile.headers.get('content-disposition')).toMatch(/\.md"$/);
    expect(markdownFile.text).toContain('# Espresso "notes"');
    expect(markdownFile.text).toContain('> A note with "quotes", commas,\n> and a line break.');
    expect(markdownFile.text).toContain('`note:grind` · video vid1 · at 1:01');
    expect(markdownFile.text).toContain('2 evidence items.');
  });

  it('answers 404 for someone else’s export and project, 422 for an unknown format, and replays an Idempotency-Key', async () => {
    const owner = demoUser('owner');
    const stranger = demoUser('stranger');
    const projectId = (await owner('POST', '/v1/projects', { json: { name: 'Mine' } })).body.id;
    const record = await readyExport(owner, projectId, 'json');
    for (const path of [`/v1/exports/${record.id}`, `/v1/exports/${record.id}/download`]) {
      const response = await stranger('GET', path);
      expect(response.status, path).toBe(404);
      expect(response.body.error.code).toBe('EXPORT_NOT_FOUND');
    }
    expect((await stranger('POST', '/v1/exports', { json: { projectId, format: 'json' } })).body.error.code).toBe('PROJECT_NOT_FOUND');
    expect((await owner('POST', '/v1/exports', { json: { projectId, format: 'pdf' } })).status).toBe(422);
    // An export is a job too: a retried create with the same Idempotency-Key is the first one, charged once.
    const headers = { 'idempotency-key': `export-${Math.random()}` };
    const first = await owner('POST', '/v1/exports', { json: { projectId, format: 'csv' }, headers });
    const retry = await owner('POST', '/v1/exports', { json: { projectId, format: 'csv' }, headers });
    expect(retry.body).toEqual(first.body);
    expect([first.status, retry.status]).toEqual([202, 202]);
    expect([first.headers.get('x-credits-charged'), retry.headers.get('x-credits-charged')]).toEqual(['0', '0']);
    expect(retry.headers.get('x-credits-remaining')).toBe(first.headers.get('x-credits-remaining'));
    expect((await owner('GET', '/v1/exports/exp_unknown/download')).status).toBe(404);
    expect((await apiClient(gatewayUrl)('GET', `/v1/exports/${record.id}/download`)).status).toBe(401);
  });

  it('documents the download and the 202 import (with its Idempotency-Key) in the OpenAPI document', async () => {
    const { body: document } = await apiClient(gatewayUrl)('GET', '/v1/openapi.json');
    const download = document.paths['/exports/{id}/download'].get;
    expect(download).toMatchObject({ operationId: 'downloadExport', tags: ['Exports'] });
    expect(Object.keys(download.responses[200].content)).toEqual(['application/json', 'text/csv', 'text/markdown']);
    expect(download.responses[409].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
    const createImport = document.paths['/projects/{projectId}/imports'].post;
    expect(Object.keys(createImport.responses)).toContain('202');
    expect(createImport.responses).not.toHaveProperty('200');
    expect(createImport.parameters).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header' }));
    const createExport = document.paths['/exports'].post;
    expect(Object.keys(createExport.responses)).toContain('202');
    expect(createExport.responses).not.toHaveProperty('200');
  });
});
