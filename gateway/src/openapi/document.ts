import { generateOpenApiDocument, type OpenAPIObject, type OpenApiRouter } from 'trpc-to-openapi';
import { errorCodes, priceOf, scopesOf, type Scope } from '@vrs/contracts';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import type { V1Router } from '../v1/router';
import { buildRouteTable } from './route-table';

export const contractTags = [
  'System',
  'Authentication',
  'Providers',
  'Discovery',
  'Videos',
  'Channels',
  'Playlists',
  'Projects',
  'Research',
  'Agents',
  'Exports',
  'Monitoring',
  'Billing',
  'Account',
];

const securitySchemes = {
  bearerApiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'aty_…', description: 'Permanent personal API key (prefix `aty_`).' },
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'vrs_session',
    description:
      "Session cookie of the web application (`__Host-vrs_session` in production). Requests that change something must also send the session's CSRF token as `X-CSRF-Token` (from GET /v1/auth/session).",
  },
  cliSession: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'atc_…',
    description: 'Short-lived session of the official command-line client (device authorization flow), prefix `atc_`.',
  },
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'Legacy-compatible header for a permanent API key; the bearer form is preferred.',
  },
  demoUser: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Demo-User',
    description: 'Local development only: any stable value selects an isolated demo account. Rejected in production.',
  },
} as const;

const statusDescriptions: Record<number, string> = {
  400: 'Malformed request (code MALFORMED_JSON)',
  401: 'Authentication required',
  402: 'Insufficient credits (code INSUFFICIENT_CREDITS); carries both credit headers',
  403: 'Not allowed (FORBIDDEN, INSUFFICIENT_SCOPE), or a restricted video (VIDEO_AGE_RESTRICTED, VIDEO_PRIVATE, VIDEO_MEMBERS_ONLY, VIDEO_PAID, VIDEO_RESTRICTED)',
  404: 'Not found',
  409: 'Conflict with the resource state (e.g. VIDEO_LIVE_NOT_ENDED)',
  413: 'Request body too large',
  415: 'Unsupported media type',
  451: 'The video is blocked in the region the service reaches YouTube from (VIDEO_REGION_BLOCKED)',
  422: 'Validation failed (VALIDATION_FAILED, or a field-specific code such as QUERY_REQUIRED; `details.issues` names each field), or UNKNOWN_PARAMETER for a query parameter or body field the operation does not declare (`details.parameters` names them)',
  429: 'Rate limit exceeded; see Retry-After',
  500: 'Unexpected error',
  503: 'A dependency (AI model, video platform or internal service) is unavailable',
};

/** Free by the price table, yet they hold credits (an agent run's budget) and say so in the credit headers (ADR 0092). */
export const creditHoldingOperations = new Set(['createAgentRun']);
const creditHeaders = {
  'X-Credits-Charged': { description: 'Credits settled for this request.', schema: { type: 'integer', minimum: 0 } },
  'X-Credits-Remaining': { description: 'Balance after metering.', schema: { type: 'integer' } },
};
const requestIdHeader = {
  'X-Request-Id': { description: 'Identifies this request in logs and support requests.', schema: { type: 'string' } },
};
const rateLimitHeaders = {
  'Retry-After': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
  'RateLimit-Limit': { schema: { type: 'integer' } },
  'RateLimit-Remaining': { schema: { type: 'integer' } },
  'RateLimit-Reset': { schema: { type: 'integer' } },
  'RateLimit-Policy': { schema: { type: 'string' } },
};

const errorEnvelopeSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: Object.keys(errorCodes), description: 'Stable UPPER_SNAKE_CASE code.' },
        message: { type: 'string' },
        details: { description: 'Structured detail, e.g. `issues` for validation errors.' },
        requestId: { type: 'string' },
      },
    },
  },
};

type OperationObject = {
  operationId?: string;
  description?: string;
  security?: unknown[];
  'x-required-scopes'?: readonly Scope[];
  responses: Record<string, { description?: string; content?: unknown; headers?: Record<string, unknown> }>;
};

type ExtraOperation = { parameters?: { name: string; in: string }[]; responses?: Record<string, { content?: Record<string, unknown> }> };

/**
 * Extra paths document plain Express routes. One that shares its path and method with a procedure
 * (a route in front of the operation answering other content types) extends that operation, adding
 * its parameters and response content types, instead of replacing it as the generator would; such
 * extensions are written as plain OpenAPI objects.
 */
function splitExtraPaths(router: V1Router, extraPaths: ZodOpenApiPathsObject = {}) {
  const routes = buildRouteTable(router);
  const added: ZodOpenApiPathsObject = {};
  const extensions: [path: string, method: string, operation: ExtraOperation][] = [];
  for (const [path, item] of Object.entries(extraPaths)) {
    for (const [method, operation] of Object.entries(item as Record<string, ExtraOperation>)) {
      if (routes.methodsFor(path).includes(method.toUpperCase())) extensions.push([path, method, operation]);
      else added[path] = { ...added[path], [method]: operation };
    }
  }
  return { added, extensions };
}

function extendOperation(target: ExtraOperation, extension: ExtraOperation): void {
  const named = new Set((target.parameters ?? []).map((p) => `${p.in} ${p.name}`));
  target.parameters = [...(target.parameters ?? []), ...(extension.parameters ?? []).filter((p) => !named.has(`${p.in} ${p.name}`))];
  target.responses ??= {};
  for (const [status, response] of Object.entries(extension.responses ?? {})) {
    const existing = target.responses[status];
    if (existing) existing.content = { ...existing.content, ...response.content };
    else target.responses[status] = response;
  }
}

/**
 * Shows the scopes an operation needs (ADR 0031) in three places: each security requirement (OpenAPI
 * 3.1 lets a requirement of any scheme list role names, not only OAuth scopes), `x-required-scopes`
 * for tools, and a sentence of the description for people. Session cookies and demo users act as
 * the owner, so they always hold what is listed. An operation that needs a credential must be in the
 * scope table; one that is not would be unguarded, so the document refuses to build.
 */
function documentScopes(operation: OperationObject): void {
  if (!operation.security || operation.security.length === 0) return;
  const scopes = scopesOf(operation.operationId ?? '');
  if (!scopes) throw new Error(`operation ${operation.operationId ?? 'unnamed'} needs a credential but has no entry in operationScopes`);
  operation.security = Object.keys(securitySchemes).map((scheme) => ({ [scheme]: [...scopes] }));
  operation['x-required-scopes'] = scopes;
  const sentence =
    scopes.length === 0
      ? 'Any valid credential; no scope needed.'
      : `Keys and CLI sessions need: ${scopes.map((scope) => `\`${scope}\``).join(', ')}.`;
  operation.description = operation.description ? `${operation.description}\n\n${sentence}` : sentence;
}

/**
 * The OpenAPI 3.1 document of /v1: generated from the facade procedures, then finished with what
 * the generator cannot know (our error envelope, credit and rate-limit headers, public operations).
 */
export function buildOpenApiDocument(router: V1Router, options: { baseUrl: string; extraPaths?: ZodOpenApiPathsObject }): OpenAPIObject {
  const { added, extensions } = splitExtraPaths(router, options.extraPaths);
  const document = generateOpenApiDocument(router as unknown as OpenApiRouter, {
    title: 'Video Research Service API',
    description:
      'Research YouTube videos: metadata, transcripts, comments, channels and playlists; trend signals; private research projects with searchable evidence; cited answers and reports. Every operation except the health probes requires authentication; metered operations report credits in `X-Credits-Charged` and `X-Credits-Remaining`. Errors use one envelope: `{error: {code, message, details?, requestId}}`. Parameters are strict: a query parameter or body field an operation does not declare is 422 `UNKNOWN_PARAMETER`, and input is validated before any credit is reserved.',
    version: '1.0.0',
    openApiVersion: '3.1.0',
    license: { name: 'Apache License 2.0', identifier: 'Apache-2.0' },
    baseUrl: options.baseUrl,
    tags: contractTags,
    securitySchemes: securitySchemes as never,
    paths: added,
  });
  for (const [path, method, extension] of extensions) {
    const operation = (document.paths as Record<string, Record<string, ExtraOperation>>)[path]?.[method];
    if (!operation) throw new Error(`The document has no ${method} ${path} to extend`);
    extendOperation(operation, extension);
  }

  // The generator's own error schemas are replaced by the envelope below, so they go.
  const generatedSchemas = Object.fromEntries(
    Object.entries(document.components?.schemas ?? {}).filter(([name]) => !name.startsWith('error.')),
  );
  document.components = { ...document.components, schemas: { ...generatedSchemas, ErrorEnvelope: errorEnvelopeSchema as never } };

  for (const pathItem of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(pathItem as Record<string, OperationObject>)) {
      if (!operation?.responses) continue;
      if (!operation.security) operation.security = [];
      documentScopes(operation);
      const metered = priceOf(operation.operationId ?? '') > 0 || creditHoldingOperations.has(operation.operationId ?? '');
      for (const [status, generated] of Object.entries(operation.responses)) {
        // The generator shares one response object between statuses it has no tRPC code for (451
        // and 500 alike) and between operations: each gets its own before it is finished.
        const response = { ...generated };
        operation.responses[status] = response;
        const code = Number(status);
        response.headers = { ...response.headers, ...requestIdHeader };
        if (code >= 400) {
          response.description = statusDescriptions[code] ?? response.description;
          response.content = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } };
        }
        if (metered && (code < 300 || code === 402)) response.headers = { ...response.headers, ...creditHeaders };
        if (code === 429) response.headers = { ...response.headers, ...rateLimitHeaders };
      }
    }
  }
  return document;
}
