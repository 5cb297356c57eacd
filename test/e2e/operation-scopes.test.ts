import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { allScopes, type Scope } from '@vrs/contracts';
import { apiClient, createApiKey } from '@vrs/testing/api-client';

const gatewayUrl = inject('gatewayUrl');
const stackEnv = inject('stackEnv');

interface DocumentedOperation {
  operationId: string;
  security: Record<string, string[]>[];
  'x-required-scopes'?: Scope[];
  parameters?: { name: string; in: string; schema?: { format?: string; enum?: string[] } }[];
  requestBody?: unknown;
}

interface Case {
  operationId: string;
  method: string;
  path: string;
  target: string;
  scopes: Scope[];
  /** An empty JSON object for operations that take a body: invalid for most, yet the scope check answers first. */
  body?: Record<string, never>;
}

/** A syntactically valid value for a path parameter: the scope check answers before any lookup. */
function pathValue(parameter: NonNullable<DocumentedOperation['parameters']>[number]): string {
  if (parameter.schema?.enum?.length) return parameter.schema.enum[0]!;
  if (parameter.schema?.format === 'uuid') return randomUUID();
  return parameter.name === 'provider' ? 'youtube' : 'vrsFixture1';
}

/**
 * Every protected operation of the served document, read at run time: operations other work adds
 * later are covered without touching this file.
 */
const document = (await (await fetch(`${gatewayUrl}/v1/openapi.json`)).json()) as {
  paths: Record<string, Record<string, DocumentedOperation>>;
};
const cases: Case[] = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([, operation]) => operation.security?.length > 0)
    .map(([method, operation]) => {
      let target = path;
      for (const parameter of operation.parameters?.filter((p) => p.in === 'path') ?? []) {
        target = target.replace(`{${parameter.name}}`, encodeURIComponent(pathValue(parameter)));
      }
      return {
        operationId: operation.operationId,
        method: method.toUpperCase(),
        path,
        target,
        scopes: operation['x-required-scopes'] ?? [],
        ...(operation.requestBody ? { body: {} } : {}),
      };
    }),
);

describe('scopes per operation, as the OpenAPI document states them', () => {
  /** For each scope, a key holding every scope but that one. */
  const lacking = new Map<Scope, string>();
  let owner: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    const { key } = await createApiKey(stackEnv);
    owner = apiClient(gatewayUrl, { authorization: `Bearer ${key}` });
    for (const scope of allScopes) {
      const created = await owner('POST', '/v1/api-keys', {
        json: { name: `without ${scope}`, scopes: allScopes.filter((s) => s !== scope) },
      });
      expect(created.status, created.text).toBe(200);
      lacking.set(scope, created.body.key);
    }
  });

  it('documents scopes for every protected operation', () => {
    expect(cases.length).toBeGreaterThan(50);
    for (const { operationId, scopes } of cases) {
      expect(Array.isArray(scopes), operationId).toBe(true);
      for (const scope of scopes) expect(allScopes, operationId).toContain(scope);
    }
  });

  it.each(cases.filter(({ scopes }) => scopes.length > 0).map((c) => [`${c.method} ${c.path}`, c] as const))(
    '%s: a key lacking any one required scope gets 403 INSUFFICIENT_SCOPE naming it',
    async (_name, { method, target, scopes, body }) => {
      for (const scope of scopes) {
        const response = await apiClient(gatewayUrl, { authorization: `Bearer ${lacking.get(scope)}` })(method, `/v1${target}`, {
          json: body,
        });
        expect(response.status, `${scope}: ${response.text}`).toBe(403);
        expect(response.body.error.code).toBe('INSUFFICIENT_SCOPE');
        expect(response.body.error.details.missing).toEqual([scope]);
        expect(response.body.error.details.required).toEqual(scopes);
      }
    },
  );

  it('a key holding exactly the required scopes is not refused (every read without path parameters)', async () => {
    const reads = cases.filter(({ method, path }) => method === 'GET' && !path.includes('{'));
    expect(reads.map(({ operationId }) => operationId)).toContain('listProjects');
    for (const { operationId, target, scopes } of reads) {
      // An operation open to any credential is tried with a key holding one unrelated scope.
      const held = scopes.length > 0 ? scopes : ['billing:read'];
      const created = await owner('POST', '/v1/api-keys', { json: { name: `exactly ${operationId}`, scopes: held } });
      expect(created.status, created.text).toBe(200);
      const response = await apiClient(gatewayUrl, { authorization: `Bearer ${created.body.key}` })('GET', `/v1${target}`);
      expect(response.status, `${operationId}: ${response.text}`).not.toBe(403);
      expect(response.status, `${operationId}: ${response.text}`).toBeLessThan(500);
    }
    const projects = await apiClient(gatewayUrl, { authorization: `Bearer ${lacking.get('data:write')}` })('GET', '/v1/projects');
    expect(projects.status).toBe(200);
  });
});
