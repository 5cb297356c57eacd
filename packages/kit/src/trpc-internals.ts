import type { AnyProcedure, AnyRouter, ProcedureType } from '@trpc/server';

/*
 * The one place that reads tRPC's definitions (`_def`): tRPC 11 has no public API listing a
 * router's procedures with their meta and declared inputs, or handing out the config its
 * `getErrorShape` needs. `trpc-internals.test.ts` holds these reads to the pinned version, so an
 * upgrade that moves them fails that test, not production.
 */

/** What the gateway and the service server read of a procedure. */
export interface ProcedureDefinition {
  type: ProcedureType;
  meta: unknown;
  /** The schemas of its `.input()` calls, in order; none when it takes no input. */
  inputs: unknown[];
  /** The functions it runs: those given to `.use()` (or `t.middleware`), then tRPC's own. */
  middlewares: unknown[];
}

/** Every procedure of the router (lazy ones excepted), by its dotted path. */
export function proceduresOf(router: AnyRouter): Record<string, AnyProcedure> {
  return router._def.procedures as Record<string, AnyProcedure>;
}

export function definitionOf(procedure: AnyProcedure): ProcedureDefinition {
  const def = procedure._def as unknown as ProcedureDefinition;
  return { type: def.type, meta: def.meta, inputs: def.inputs, middlewares: def.middlewares };
}

/** The router's root config, as tRPC's `getErrorShape` takes it. */
export function errorConfigOf(router: AnyRouter): AnyRouter['_def']['_config'] {
  return router._def._config;
}
