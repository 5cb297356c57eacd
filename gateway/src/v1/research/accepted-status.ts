import type { OpenAPIObject } from 'trpc-to-openapi';

/**
 * Work that finishes later (ADR 0004): the operations that start it answer 202 Accepted with the
 * resource to poll, where the REST handler and trpc-to-openapi would say 200.
 */
const acceptedOperations = new Set(['createImport', 'createExport', 'checkMonitor', 'createAgentRun', 'deleteAccount']);

/** For `responseMeta`: the success status of a procedure, 202 for those that start work. */
export function successStatusOf(operationId: string | undefined): number | undefined {
  return acceptedOperations.has(operationId ?? '') ? 202 : undefined;
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
