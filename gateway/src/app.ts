import express, { type NextFunction, type Request, type Response } from 'express';
import {
  AppError,
  createLogger,
  internalTokenHeader,
  isInternalToken,
  clientMayReadMetrics,
  metricsPath,
  metricsRefusal,
  metricsSecretOf,
  newRequestId,
  openInternalClients,
  sendMetrics,
  processFiguresPath,
  sendProcessFigures,
  watchEventLoop,
  type HealthReport,
  requestLogFields,
  traceOfRequest,
} from '@vrs/kit';
import type { WindowCounter } from '@vrs/bus';
import { accessLog } from './access-log';
import { requestMetrics } from './edge/request-metrics';
import { canonicalPath } from './edge/canonical-path';
import { securityHeaders } from './edge/security-headers';
import { checkJsonBody } from './edge/json-body';
import type { GatewayConfig } from './config';
import type { GatewayContext } from './context';
import { servicesFor, type GatewayServices } from './services';
import type { Authenticator } from './auth/authenticator';
import type { AuthCaches } from './auth/auth-caches';
import { resolvePrincipal } from './auth/resolve-principal';
import { csrfProtection } from './auth/csrf';
import type { SessionVerifier } from './auth/session-authenticators';
import type { SessionCookieSettings } from './auth/session-cookie';
import { rotateSessionCookie } from './auth/session-rotation';
import type { Mailer } from './mail/mailer';
import type { CreditCalls } from './metering/credit-calls';
import { creditHeaders } from './metering/meter';
import { createWebRouter } from './web/router';
import { sendError } from './errors/envelope';
import { toAppError } from './errors/to-app-error';
import { createRateLimiters } from './rate-limit/limiters';
import { createPlanRateLimits } from './rate-limit/plan-rate-limits';
import { planCatalogueOf } from '@vrs/billing/config';
import { deviceCodeLimiter } from './rate-limit/device-code-limiter';
import { buildOpenApiDocument } from './openapi/document';
import { referencePage } from './openapi/reference-page';
import { buildRouteTable } from './openapi/route-table';
import { createRestHandler } from './openapi/rest-handler';
import { v1Router } from './v1/router';
import { transcriptFilePaths, transcriptFileRoute } from './downloads/transcript-file';
import { exportFilePaths, exportFileRoute } from './downloads/export-file';
import { agentRunEventsPaths, agentRunEventsRoute } from './streams/agent-run-events';
import { documentAcceptedResponses, successStatusOf } from './v1/research/accepted-status';
import { mcpMethodNotAllowed, mcpRoute } from './mcp/mcp-route';
import { createOAuthRouter } from './oauth/router';

const log = createLogger('gateway');
/** Plain routes beside the procedures, as the OpenAPI document shows them. */
export const extraOperationPaths = { ...transcriptFilePaths, ...exportFilePaths, ...agentRunEventsPaths };
const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/;

export interface GatewayDependencies {
  config: GatewayConfig;
  services: GatewayServices;
  authenticators: Authenticator[];
  /** The authenticators' caches, dropped for a deleted account. */
  authCaches: AuthCaches;
  rateLimitCounter: WindowCounter;
  readiness: () => Promise<HealthReport>;
  /** How metered requests reserve and settle their credits (ADR 0083). */
  creditCalls: CreditCalls;
  /** Web and CLI sessions, the session cookie's settings, and outgoing mail (ADR 0034). */
  identity: { sessions: SessionVerifier; cookie: SessionCookieSettings; mailer: Mailer };
}

/**
 * A caller's own X-Request-Id is kept when it is sane, so their logs and ours line up. With tracing
 * on, the request's HTTP server span (`withRequestSpans`) travels with the id from here on (ADR 0117).
 */
function assignRequestId(req: Request, res: Response, next: NextFunction) {
  const given = req.headers['x-request-id'];
  req.requestId = typeof given === 'string' && requestIdPattern.test(given) ? given : newRequestId();
  req.trace = traceOfRequest(req);
  res.setHeader('X-Request-Id', req.requestId);
  next();
}

/**
 * A POST that carries no body at all (`POST /v1/jobs/{id}/cancel`, marking something read) is an
 * empty JSON object, as a REST consumer would expect, not a 415 for a missing content type.
 */
function emptyBodyAsJson(req: Request, _res: Response, next: NextFunction) {
  const bodiless =
    req.headers['content-length'] === '0' ||
    (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined);
  if (req.method === 'POST' && bodiless && req.headers['content-type'] === undefined) {
    req.headers['content-type'] = 'application/json';
    req.body = {};
  }
  next();
}

/**
 * body-parser's failures, in our codes. Anything else it refuses with a 4xx (a body shorter than its
 * Content-Length, a gzip header on a plain body, an aborted upload) is a body we could not read.
 */
function bodyParserError(error: unknown): AppError | undefined {
  // Our own refusals (a CSRF check) carry a 4xx status too, and are already what to answer.
  if (error instanceof AppError) return error;
  const { type, status } = error as { type?: string; status?: number };
  if (type === 'entity.parse.failed') return new AppError('MALFORMED_JSON');
  if (type === 'entity.too.large') return new AppError('PAYLOAD_TOO_LARGE');
  if (type === 'charset.unsupported') return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as UTF-8 JSON.');
  if (type === 'encoding.unsupported')
    return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the body uncompressed, or with Content-Encoding gzip, deflate or br.');
  if (typeof status === 'number' && status >= 400 && status < 500) return new AppError('MALFORMED_BODY');
  return undefined;
}

/** The 415 of a body that is not JSON: it names the type received and what to send. */
function unsupportedMediaType(contentType: string | undefined): AppError {
  return new AppError(
    'UNSUPPORTED_MEDIA_TYPE',
    contentType
      ? `Unsupported content-type ${JSON.stringify(contentType)}; send application/json.`
      : 'Missing content-type header; send application/json.',
  );
}

export function createGatewayApp(deps: GatewayDependencies) {
  const { config, services } = deps;
  const routes = buildRouteTable(v1Router);
  // Built at start, so a procedure the document cannot describe stops the gateway there; only its JSON is kept.
  const openApiJson = Buffer.from(
    JSON.stringify(
      documentAcceptedResponses(
        buildOpenApiDocument(v1Router, {
          baseUrl: `${config.PUBLIC_BASE_URL ?? ''}/v1`,
          extraPaths: extraOperationPaths,
        }),
      ),
    ),
  );
  const limiters = createRateLimiters(deps.rateLimitCounter, {
    windowMs: config.RATE_LIMIT_WINDOW_MS,
    perAccount: createPlanRateLimits(services, {
      plans: planCatalogueOf(config),
      windowMs: config.RATE_LIMIT_WINDOW_MS,
      cacheTtlMs: config.AUTH_CACHE_TTL_MS,
      logger: log,
    }),
    perIp: config.RATE_LIMIT_PER_IP,
    internalToken: config.INTERNAL_TOKEN,
  });

  // The context of every facade call, whether the REST handler or a plain route in front of it makes the call.
  const contextOf = (request: Request, res: Response): GatewayContext => ({
    req: request,
    res,
    requestId: request.requestId,
    trace: request.trace,
    principal: request.principal ?? null,
    authError: request.authError,
    credits: {},
    services: servicesFor(services, { requestId: request.requestId, trace: request.trace }),
    creditCalls: deps.creditCalls,
    authCaches: deps.authCaches,
    internalCaller: isInternalToken(request.get(internalTokenHeader), config.INTERNAL_TOKEN),
    readiness: deps.readiness,
    deviceFlow: {
      publicBaseUrl: config.PUBLIC_BASE_URL,
      codeTtlSeconds: config.DEVICE_CODE_TTL_SECONDS,
      intervalSeconds: config.DEVICE_POLL_INTERVAL_SECONDS,
      cliSessionTtlMs: config.CLI_SESSION_TTL_MS,
    },
    log,
  });
  const restHandler = createRestHandler({
    router: v1Router,
    createContext: contextOf,
    toAppError: (error, req, input, procedurePath) => {
      const appError =
        error.code === 'UNSUPPORTED_MEDIA_TYPE'
          ? unsupportedMediaType(req.headers['content-type'])
          : toAppError(error, { input, fieldCodes: routes.metaOf(procedurePath)?.fieldCodes });
      if (appError.code === 'INTERNAL_ERROR')
        log.error({ err: error.cause ?? error, path: procedurePath, ...requestLogFields(req) }, 'request failed');
      return appError;
    },
    responseMeta: (ctx, failed, procedurePath) => ({
      status: failed ? undefined : successStatusOf(routes.metaOf(procedurePath)?.openapi?.operationId),
      headers: creditHeaders(ctx?.credits),
    }),
  });

  const metricsReaders = openInternalClients({ inline: config.INTERNAL_CLIENTS, file: config.INTERNAL_CLIENTS_FILE }, log);
  const app = express();
  watchEventLoop();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', config.TRUST_PROXY_HOPS);
  app.use(securityHeaders(config.PUBLIC_BASE_URL));
  // Operators' and benchmarks' view of this process (RSS, event-loop delay), before any logging or
  // limiting so that reading it costs the process nothing; without the internal token it does not exist.
  app.get(processFiguresPath, (req, res, next) => {
    if (!isInternalToken(req.get(internalTokenHeader), config.INTERNAL_TOKEN)) return next();
    sendProcessFigures(req.url, res);
  });
  // Prometheus's view (ADR 0101): the internal token or a named internal client allowed `metrics`.
  app.get(metricsPath, (req, res) => {
    const secret = metricsSecretOf(req);
    if (isInternalToken(secret, config.INTERNAL_TOKEN) || clientMayReadMetrics(metricsReaders.identify(secret))) void sendMetrics(res);
    else res.status(401).type('application/json').send(metricsRefusal);
  });
  app.use(
    assignRequestId,
    accessLog(createLogger('access')),
    requestMetrics,
    canonicalPath,
    express.json({ limit: config.BODY_LIMIT_BYTES, verify: (_req, _res, body, encoding) => checkJsonBody(body, encoding) }),
    emptyBodyAsJson,
  );

  const v1 = express.Router();
  v1.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(openApiJson);
  });
  v1.use('/docs', referencePage('/v1/openapi.json', '/v1'));
  v1.use(limiters.perIp);
  v1.use('/auth/device/code', deviceCodeLimiter(deps.rateLimitCounter, config));
  v1.use(
    resolvePrincipal(deps.authenticators),
    limiters.perAccount,
    rotateSessionCookie(services, deps.identity.sessions, { cookie: deps.identity.cookie, graceMs: config.SESSION_ROTATION_GRACE_MS, log }),
    csrfProtection({ publicBaseUrl: config.PUBLIC_BASE_URL }),
  );
  v1.get('/providers/:provider/videos/:id/transcript', transcriptFileRoute(contextOf));
  v1.get('/exports/:id/download', exportFileRoute(contextOf));
  v1.get('/agent/:sessionId/runs/:runId/events', agentRunEventsRoute(contextOf));
  v1.use(restHandler);
  v1.use((req, res) => {
    const allowed = routes.methodsFor(req.path);
    if (allowed.length > 0) {
      res.setHeader('Allow', allowed.join(', '));
      sendError(res, new AppError('METHOD_NOT_ALLOWED', `${req.method} is not allowed here; use ${allowed.join(' or ')}.`), req.requestId);
      return;
    }
    sendError(res, new AppError('ROUTE_NOT_FOUND', `No operation at ${req.method} /v1${req.path}.`), req.requestId);
  });
  app.use('/v1', v1);
  app.post(
    '/mcp',
    limiters.perIp,
    resolvePrincipal(deps.authenticators),
    mcpRoute({ internalToken: config.INTERNAL_TOKEN, publicBaseUrl: config.PUBLIC_BASE_URL }),
  );
  app.all('/mcp', mcpMethodNotAllowed);
  // The OAuth 2.1 authorization server (ADR 0095) and the first-party web app share these.
  const identityRouterDeps = { config, services, ...deps.identity, authCaches: deps.authCaches, counter: deps.rateLimitCounter, log };
  app.use(createOAuthRouter({ ...identityRouterDeps, perIp: limiters.perIp }));
  // The first-party web app, outside /v1 (ADR 0034), under the same per-IP limit as the API.
  app.use(limiters.perIp, createWebRouter(identityRouterDeps));
  app.use((req, res) => {
    sendError(
      res,
      new AppError('ROUTE_NOT_FOUND', `No operation at ${req.method} ${req.path}. Every path begins with /v1.`),
      req.requestId,
    );
  });
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const appError = bodyParserError(error) ?? toAppError(error);
    if (appError.code === 'INTERNAL_ERROR') log.error({ err: error, ...requestLogFields(req) }, 'unhandled error');
    if (res.headersSent) return;
    sendError(res, appError, req.requestId ?? newRequestId());
  });
  return { app };
}
