import { spawnSync } from 'node:child_process';
import { parse as parseCsvLibrary } from 'csv-parse/sync';
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

const python3 = spawnSync('python3', ['--version']).status === 0;

/**
 * The rows a standard CSV reader makes of the bytes: Python's csv module (RFC 4180 dialect, UTF-8,
 * `newline=''` as its documentation asks), or csv-parse where python3 is absent.
 */
function standardCsvRows(bytes: Buffer): string[][] {
  if (!python3) return parseCsvLibrary(bytes, { encoding: 'utf8', relax_column_count: true });
  const script =
    'import csv, io, json, sys\nrows = list(csv.reader(io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", newline="")))\nprint(json.dumps(rows))';
  const run = spawnSync('python3', ['-c', script], { input: bytes, maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`python3 csv failed: ${run.stderr}`);
  return JSON.parse(run.stdout.toString('utf8'));
}

/** Evidence a CSV writer can get wrong: line breaks of every kind, quotes, commas, formula-like text, non-ASCII. */
const trickyItems = [
  { text: 'A video description\nwith a line feed', sourceKey: 'tricky:lf' },
  { text: 'Windows line\r\nbreak', sourceKey: 'tricky:crlf', entityId: 'vid,1', startMs: 0 },
  { text: 'Old Mac\rbreak', sourceKey: 'tricky:cr' },
  { text: 'He said "grind finer", then left', sourceKey: 'tricky:"quoted", key' },
  { text: '=HYPERLINK("http://example.com","click")', sourceKey: '=key' },
  { text: '+1+1', sourceKey: '+key' },
  { text: '-2+3', sourceKey: '-key', startMs: 1_234_567 },
  { text: '@SUM(A1:A9)', sourceKey: '@key' },
  { text: 'Café ☕ — naïve 日本語 😀, "ok"\n\nend', sourceKey: 'tricky:ünïcödé' },
  { text: 'tab\tinside; semi;colon', sourceKey: 'tricky:tab' },
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

  it('exports evidence with line breaks, quotes, commas, formula-like and non-ASCII text that real parsers read back exactly (issue 37, item 6)', async () => {
    const user = `exports-tricky-${Math.random().toString(36).slice(2)}`;
    const api = apiClient(gatewayUrl, { 'x-demo-user': user });
    const projectId = (await api('POST', '/v1/projects', { json: { name: 'Tricky, "text"' } })).body.id;
    const added = await api('POST', `/v1/projects/${projectId}/evidence`, { json: { items: trickyItems } });
    expect(added.status, added.text).toBe(200);
    const stored = added.body.items as Record<string, string | number | undefined>[];
    expect(stored.map((item) => item.text)).toEqual(trickyItems.map((item) => item.text));
    const columns = ['id', 'sourceKey', 'provider', 'entityId', 'startMs', 'text', 'createdAt', 'updatedAt'];
    const expected = stored.map((item) => Object.fromEntries(columns.map((column) => [column, item[column]])));
    const byId = (rows: Record<string, unknown>[]) => [...rows].sort((a, b) => String(a.id).localeCompare(String(b.id)));
    const download = async (id: string) => {
      const response = await fetch(`${gatewayUrl}/v1/exports/${id}/download`, { headers: { 'x-demo-user': user } });
      expect(response.status).toBe(200);
      return Buffer.from(await response.arrayBuffer());
    };

    const json = await readyExport(api, projectId, 'json');
    expect(json.itemCount).toBe(trickyItems.length);
    const jsonFile = JSON.parse((await download(json.id)).toString('utf8'));
    expect(jsonFile.itemCount).toBe(json.itemCount);
    expect(jsonFile.evidence).toHaveLength(json.itemCount);
    expect(byId(jsonFile.evidence)).toEqual(byId(expected));

    const csv = await readyExport(api, projectId, 'csv');
    expect(csv.itemCount).toBe(trickyItems.length);
    const [header, ...rows] = standardCsvRows(await download(csv.id));
    expect(header).toEqual(columns);
    expect(rows).toHaveLength(csv.itemCount);
    for (const row of rows) expect(row).toHaveLength(columns.length);
    // Every cell is the stored value exactly (a number as its digits, an absent one empty).
    expect(byId(rows.map((row) => Object.fromEntries(columns.map((column, i) => [column, row[i]]))))).toEqual(
      byId(
        expected.map((item) =>
          Object.fromEntries(columns.map((column) => [column, item[column] === undefined ? '' : String(item[column])])),
        ),
      ),
    );

    const markdown = await readyExport(api, projectId, 'markdown');
    const markdownText = (await download(markdown.id)).toString('utf8');
    expect(markdownText.match(/^## ev_/gm)).toHaveLength(markdown.itemCount);
    for (const item of stored) {
      const quoted = String(item.text)
        .split(/\r\n|\r|\n/)
        .map((line) => `> ${line}`)
        .join('\n');
      expect(markdownText).toContain(`## ${item.id}\n\n${quoted}\n`);
    }
    // No line of the file ends inside a quote with a bare CR that a Markdown reader would take as a line break.
    expect(markdownText).not.toMatch(/\r/);
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
