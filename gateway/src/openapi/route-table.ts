import type { OpenApiMeta } from 'trpc-to-openapi';
import type { AnyRouter } from '@trpc/server';
import { definitionOf, proceduresOf } from '@vrs/kit';
import type { GatewayMeta } from '../trpc';

type ProcedureMeta = OpenApiMeta<GatewayMeta>;

/** What the facade router serves, read once from its procedures' meta (for 405s and error codes). */
export function buildRouteTable(router: AnyRouter) {
  const metas = new Map<string, ProcedureMeta>();
  const routes: { method: string; pattern: RegExp }[] = [];
  for (const [path, procedure] of Object.entries(proceduresOf(router))) {
    const meta = definitionOf(procedure).meta as ProcedureMeta | undefined;
    if (!meta) continue;
    metas.set(path, meta);
    if (meta.openapi) {
      const source = meta.openapi.path.replace(/\/+$/, '').replace(/\{[^}]+\}/g, '[^/]+');
      routes.push({ method: meta.openapi.method, pattern: new RegExp(`^${source}/?$`, 'i') });
    }
  }
  return {
    metaOf: (procedurePath: string) => metas.get(procedurePath),
    /** Methods the path accepts; empty when no operation lives there. */
    methodsFor: (path: string) => routes.filter((route) => route.pattern.test(path)).map((route) => route.method),
  };
}
