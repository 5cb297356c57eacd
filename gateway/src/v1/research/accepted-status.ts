import type { Response } from 'express';
import type { OpenAPIObject } from 'trpc-to-openapi';
import type { GatewayContext } from '../../context';

/*
 * The REST handler answers every success 200 unless `responseMeta` names a status, and trpc-to-openapi documents 200.
 * One rule for work that finishes later (ADR 0004): the operations that start it (imports,
 * exports) answer 202 Accepted with the resource to poll. The procedure marks its response,
 * `responseMeta` reads the mark, and the document's 200 of those operations becomes 202.
 */

const acceptedOperations = new Set(['createImport', 'createExport', 'checkMonitor', 'createAgentRun', 'deleteAccount']);

/** Called by a procedure whose success means "queued, not done yet". */
export function markAccepted(ctx: GatewayContext): void {
  (ctx.res as Response).locals.successStatus = 202;
}

/** For `responseMeta`: the success status a procedure asked for, if any. */
export function successStatusOf(res: unknown): number | undefined {
  return (res as Response | undefined)?.locals?.successStatus as number | undefined;
}

export function documentAcceptedResponses(document: OpenAPIObject): OpenAPIObject {
  for (const pathItem of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(pathItem as Record<string, { operationId?: string; responses?: Record<string, unknown> }>)) {
      if (!operation?.responses || !acceptedOperations.has(operation.operationId ?? '')) continue;
      const { 200: ok, ...rest } = operation.responses;
      operation.responses = { 202: ok, ...rest };
    }
  }
  return document;
}
