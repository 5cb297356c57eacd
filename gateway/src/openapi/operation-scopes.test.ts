import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { operationScopes } from '@vrs/contracts';
import { extraOperationPaths } from '../app';
import { protectedProcedure, publicProcedure, router } from '../trpc';
import { v1Router } from '../v1/router';
import { buildOpenApiDocument } from './document';

type Operation = { operationId: string; description?: string; security: Record<string, string[]>[]; 'x-required-scopes'?: string[] };

const document = buildOpenApiDocument(v1Router, { baseUrl: 'http://gateway.invalid/v1', extraPaths: extraOperationPaths });
const operations = Object.values(document.paths ?? {}).flatMap((item) => Object.values(item as Record<string, Operation>));
const isProtected = (operation: Operation) => operation.security.length > 0;

describe('the scope table (operationScopes)', () => {
  it('names every operation that needs a credential, and nothing else', () => {
    const protectedIds = operations.filter(isProtected).map((operation) => operation.operationId);
    const publicIds = operations.filter((operation) => !isProtected(operation)).map((operation) => operation.operationId);
    expect(protectedIds.length).toBeGreaterThan(50);
    // The health probes, and the device flow's two steps a client takes before it holds any credential (ADR 0036).
    expect(publicIds.sort()).toEqual(['exchangeDeviceCode', 'getHealth', 'getReadiness', 'requestDeviceCode']);
    expect(protectedIds.filter((id) => !(id in operationScopes))).toEqual([]);
    expect(Object.keys(operationScopes).filter((id) => !protectedIds.includes(id))).toEqual([]);
  });

  it('is what the document shows for each operation: security requirements, x-required-scopes and the description', () => {
    for (const operation of operations.filter(isProtected)) {
      const scopes = operationScopes[operation.operationId as keyof typeof operationScopes];
      expect(operation['x-required-scopes'], operation.operationId).toEqual(scopes);
      expect(
        operation.security.map((requirement) => Object.values(requirement)[0]),
        operation.operationId,
      ).toEqual(operation.security.map(() => scopes));
      expect(operation.security.map((requirement) => Object.keys(requirement)[0]).sort()).toEqual(
        Object.keys(document.components?.securitySchemes ?? {}).sort(),
      );
      expect(operation.description).toContain(scopes.length > 0 ? `Keys and CLI sessions need: \`${scopes[0]}\`` : 'no scope needed');
    }
  });

  it('a protected procedure whose operation is missing from the table stops the router from being built', () => {
    const unlisted = protectedProcedure
      .meta({ openapi: { method: 'GET', path: '/unlisted', operationId: 'unlistedOperation', protect: true } })
      .input(z.object({}))
      .output(z.object({}))
      .query(() => ({}));
    expect(() => router({ unlisted })).toThrow(/unlistedOperation.*operationScopes/);
    // A public procedure needs no entry.
    const open = publicProcedure
      .meta({ openapi: { method: 'GET', path: '/open', operationId: 'openOperation' } })
      .input(z.object({}))
      .output(z.object({}))
      .query(() => ({}));
    expect(() => router({ open })).not.toThrow();
  });
});
