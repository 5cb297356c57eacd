import { describe, expect, inject, it } from 'vitest';
import { priceOf, recordStates, workStates } from '@vrs/contracts';
import { apiClient } from '@vrs/testing/api-client';

/*
 * One vocabulary across the served document (issue 39, ADR 0092): every instant a date-time string,
 * every `status` from the shared lists, every metered success with both credit headers.
 */
const api = apiClient(inject('gatewayUrl'));

type Schema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};
type Operation = {
  operationId?: string;
  responses?: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema?: Schema }> }>;
};

/** Numbers the contract fixes (their unit is in their description); every other instant is a date-time. */
const contractNumbers = new Set(['nextCheckAt']);
/** Instants are named `…At`; a field so named that is not one would have to say so here. */
const isInstantName = (name: string) => /[a-z]At$/.test(name);
/** Free by the price table, but they hold credits and report them. */
const creditHolding = new Set(['createAgentRun']);

async function servedDocument() {
  const { status, body } = await api('GET', '/v1/openapi.json');
  expect(status).toBe(200);
  return body as { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };
}

/** Calls `visit` on every property of every schema reachable from `root`, through refs, once each. */
function walk(root: Schema, schemas: Record<string, Schema>, visit: (name: string, schema: Schema, where: string) => void) {
  const seen = new Set<Schema>();
  const go = (schema: Schema | boolean | undefined, where: string) => {
    if (!schema || schema === true || seen.has(schema)) return;
    seen.add(schema);
    if (schema.$ref) return go(schemas[schema.$ref.replace('#/components/schemas/', '')], schema.$ref);
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      visit(name, property, `${where}.${name}`);
      go(property, `${where}.${name}`);
    }
    go(schema.items, `${where}[]`);
    go(schema.additionalProperties, `${where}{}`);
    for (const member of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) go(member, where);
  };
  go(root, '');
}

/** The property itself, or its non-null member (`anyOf: [X, {type: null}]`). */
function nonNull(schema: Schema, schemas: Record<string, Schema>): Schema[] {
  const resolved = schema.$ref ? schemas[schema.$ref.replace('#/components/schemas/', '')]! : schema;
  const members = resolved.anyOf ?? resolved.oneOf ?? [resolved];
  return members.filter((member) => member.type !== 'null');
}

describe('one vocabulary in the served OpenAPI document (ADR 0092)', () => {
  it('types every instant as an ISO 8601 date-time, except the numbers the contract fixes, which say their unit', async () => {
    const doc = await servedDocument();
    const wrong: string[] = [];
    let instants = 0;
    const check = (name: string, schema: Schema, where: string) => {
      if (!isInstantName(name)) return;
      instants++;
      for (const member of nonNull(schema, doc.components.schemas)) {
        if (contractNumbers.has(name)) {
          if (member.type !== 'integer' || !/milliseconds/i.test(JSON.stringify(schema)))
            wrong.push(`${where}: a contract number without its unit`);
        } else if (member.type !== 'string' || member.format !== 'date-time') wrong.push(`${where}: ${JSON.stringify(member)}`);
      }
    };
    for (const [name, schema] of Object.entries(doc.components.schemas))
      walk(schema, doc.components.schemas, (n, s, w) => check(n, s, `${name}${w}`));
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(item))
        for (const [status, response] of Object.entries(operation.responses ?? {}))
          for (const media of Object.values(response.content ?? {}))
            if (media.schema) walk(media.schema, doc.components.schemas, (n, s, w) => check(n, s, `${method} ${path} ${status}${w}`));
    expect(wrong).toEqual([]);
    // The walk saw the fields it is about (monitors, checks, digests, deliveries, jobs…).
    expect(instants).toBeGreaterThan(30);
  });

  it('draws every `status` from the shared states, and none from the names they replaced', async () => {
    const doc = await servedDocument();
    const allowed = new Set<unknown>([...workStates, ...recordStates]);
    const wrong: string[] = [];
    const values: unknown[] = [];
    const check = (name: string, schema: Schema, where: string) => {
      // The probes' answers (`ok`, `ready`) say how the service is, not the state of a record.
      if (name !== 'status' || /^(Health|Readiness)\b|^get \/health/.test(where)) return;
      for (const member of nonNull(schema, doc.components.schemas)) {
        const named = member.enum ?? (member.const === undefined ? [] : [member.const]);
        values.push(...named);
        for (const value of named) if (!allowed.has(value)) wrong.push(`${where}: ${String(value)}`);
      }
    };
    for (const [name, schema] of Object.entries(doc.components.schemas))
      walk(schema, doc.components.schemas, (n, s, w) => check(n, s, `${name}${w}`));
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(item))
        for (const response of Object.values(operation.responses ?? {}))
          for (const media of Object.values(response.content ?? {}))
            if (media.schema) walk(media.schema, doc.components.schemas, (n, s, w) => check(n, s, `${method} ${path}${w}`));
    expect(wrong).toEqual([]);
    expect(values).toEqual(expect.arrayContaining([...workStates]));
    for (const former of ['queued', 'canceled', 'ready']) expect(values).not.toContain(former);
  });

  it('declares X-Credits-Charged and X-Credits-Remaining on every success of every metered operation, 202s included', async () => {
    const doc = await servedDocument();
    const missing: string[] = [];
    let metered = 0;
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(item)) {
        const id = operation.operationId ?? '';
        if (priceOf(id) === 0 && !creditHolding.has(id)) continue;
        metered++;
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          if (!status.startsWith('2')) continue;
          for (const header of ['X-Credits-Charged', 'X-Credits-Remaining'])
            if (!response.headers?.[header]) missing.push(`${method} ${path} ${status}: ${header}`);
        }
      }
    expect(missing).toEqual([]);
    expect(metered).toBeGreaterThan(10);
    expect(Object.keys(doc.paths['/agent/runs']!.post!.responses!['202']!.headers!)).toEqual(
      expect.arrayContaining(['X-Credits-Charged', 'X-Credits-Remaining']),
    );
  });
});
