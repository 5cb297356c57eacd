import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as contracts from '@vrs/contracts';
import { definitionOf, proceduresOf, unknownKeys } from '@vrs/kit';
import { extraOperationPaths } from '../app';
import { v1Router } from '../v1/router';
import { buildOpenApiDocument } from './document';

interface JsonSchema {
  $ref?: string;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: unknown;
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

const document = buildOpenApiDocument(v1Router, { baseUrl: 'http://gateway.invalid/v1', extraPaths: extraOperationPaths });
const components = (document.components?.schemas ?? {}) as Record<string, JsonSchema>;

/** Paths of the objects under `schema` that name their fields but would take others. */
function openObjects(schema: JsonSchema | undefined, at: string, seen = new Set<string>()): string[] {
  if (!schema) return [];
  if (schema.$ref) {
    if (seen.has(schema.$ref)) return [];
    seen.add(schema.$ref);
    return openObjects(components[schema.$ref.replace('#/components/schemas/', '')], at, seen);
  }
  const children: [JsonSchema | undefined, string][] = [
    ...Object.entries(schema.properties ?? {}).map(([key, child]) => [child, `${at}.${key}`] as [JsonSchema, string]),
    [schema.items, `${at}[]`],
    ...[...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])].map((child) => [child, at] as [JsonSchema, string]),
  ];
  const open = schema.properties && schema.additionalProperties !== false ? [at] : [];
  return [...open, ...children.flatMap(([child, path]) => openObjects(child, path, seen))];
}

// A plain z.object in an input strips an unknown key silently; these find one wherever it is declared.
describe('strict inputs', () => {
  it("every operation's input refuses a key it does not declare (UNKNOWN_PARAMETER)", () => {
    const procedures = Object.entries(proceduresOf(v1Router));
    expect(procedures.length).toBeGreaterThan(50);
    for (const [path, procedure] of procedures) {
      for (const input of definitionOf(procedure).inputs as z.ZodType[]) {
        const parsed = input.safeParse({ notDeclaredAnywhere: 1 });
        expect(parsed.success ? [] : unknownKeys(parsed.error), path).toContain('notDeclaredAnywhere');
      }
    }
  });

  it("every operation's input is the one @vrs/contracts exports under its operation id (`getProjectInput`), not a gateway copy", () => {
    const exported: Record<string, unknown> = contracts;
    const misplaced = Object.entries(proceduresOf(v1Router)).flatMap(([path, procedure]) => {
      const { meta, inputs } = definitionOf(procedure);
      const name = `${(meta as { openapi?: { operationId?: string } } | undefined)?.openapi?.operationId ?? path}Input`;
      return inputs.length === 1 && inputs[0] === exported[name] ? [] : [`${path}: expected its one input to be ${name}`];
    });
    expect(misplaced).toEqual([]);
  });

  it('every object of every request body is closed (additionalProperties: false), at every depth', () => {
    const bodies = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>).map(
        ([method, operation]) => [`${method} ${path}`, operation.requestBody?.content?.['application/json']?.schema] as const,
      ),
    );
    expect(bodies.filter(([, schema]) => schema).length).toBeGreaterThan(15);
    expect(bodies.flatMap(([name, schema]) => openObjects(schema, name))).toEqual([]);
  });
});
