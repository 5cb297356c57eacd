import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import type { AnyRouter } from '@trpc/server';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import { listen } from './listen';
import { createServiceCallHandler } from './service-call-handler';
import { newRequestId } from './request-context';
import type { Logger } from './logger';
import { processFiguresPath, sendProcessFigures, watchEventLoop } from './process-figures';
import { handleInTurns } from './request-turns';
import { clientAllows, openInternalClients, type InternalClient, type InternalClientsSource } from './internal-clients';
import { AppError } from './app-error';
import { metricsPath, sendMetrics } from './metrics';
import { clientMayReadMetrics, metricsRefusal, metricsSecretOf } from './metrics-access';
import { toTRPCError, type ServiceContext } from './trpc';
import { serviceNames } from '@vrs/contracts';
import { spanOf, traceOfRequest, withRequestSpans } from './tracing';

export const internalTokenHeader = 'x-internal-token';
export const requestIdHeader = 'x-request-id';
export const callerHeader = 'x-caller';

/**
 * The names our own code gives in X-Caller beside the internal token: the gateway, the services, the
 * operator scripts and the benchmarks. Any other name is `other`, so a metric label or a log line never
 * carries what a token holder typed (named internal clients are their configured names, ADR 0098).
 */
export const ownCallerNames: ReadonlySet<string> = new Set([
  'gateway',
  ...serviceNames,
  'agents-allow',
  'billing-set-plan',
  'create-api-key',
  'reindex',
  'bench',
]);

const ownCaller = (name: string | undefined) => (name === undefined ? 'unknown' : ownCallerNames.has(name) ? name : 'other');

/** Constant-time comparison of a presented internal token with the configured one. */
export function isInternalToken(given: string | undefined, expected: string | undefined): boolean {
  if (!given || expected === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function headerValue(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export interface ServiceServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves a service router over tRPC-HTTP. Every call must carry the internal token (the services'
 * own credential, whose caller names itself in X-Caller) or the secret of a named internal client
 * (ADR 0098), so a service port is not an open door; the caller's request id is restored so logs
 * stay correlated. A named client's calls are its own `caller`, limited to what its entry allows,
 * and each gets an access log line naming it.
 */
export async function startServiceServer(options: {
  service: string;
  router: AnyRouter;
  port: number;
  host: string;
  /** The setting that chose `port`, named when the port is taken. */
  portSetting?: string;
  internalToken: string;
  /** INTERNAL_CLIENTS / INTERNAL_CLIENTS_FILE: the named internal clients' entries. */
  internalClients?: InternalClientsSource;
  logger: Logger;
  /** REQUEST_TURN_BUDGET_MS (see `handleInTurns`); unset, every request starts at once. */
  turnBudgetMs?: number;
}): Promise<ServiceServer> {
  const { router, internalToken, logger, service } = options;
  const clients = openInternalClients(options.internalClients ?? {}, logger);
  const clientOfRequest = new WeakMap<http.IncomingMessage, InternalClient>();
  /** `alone`: the request carries one call, which takes the request's span as its own (ADR 0120). */
  const contextOf = (req: http.IncomingMessage, alone: boolean): ServiceContext => {
    const requestId = headerValue(req, requestIdHeader) ?? newRequestId();
    const client = clientOfRequest.get(req);
    const trace = traceOfRequest(req);
    const requestSpan = alone ? spanOf(trace) : undefined;
    if (!client) return { requestId, caller: ownCaller(headerValue(req, callerHeader)), service, trace, requestSpan };
    return {
      requestId,
      caller: client.name,
      service,
      allows: (path, type) => clientAllows(client, service, path, type),
      trace,
      requestSpan,
    };
  };
  const serviceCall = createServiceCallHandler(router, (req) => contextOf(req, true));
  const trpcHandler = createHTTPHandler({ router, basePath: '/trpc/', createContext: ({ req }) => contextOf(req, false) });
  // An unknown secret on a tRPC path is refused in tRPC's own shape (a batch gets one error per call),
  // so a stock @trpc/client sees 401 UNAUTHORIZED with appCode UNAUTHENTICATED.
  const refuseUnauthenticated = createHTTPHandler({
    router,
    basePath: '/trpc/',
    createContext: (): ServiceContext => {
      throw toTRPCError(new AppError('UNAUTHENTICATED', 'Service calls need a valid X-Internal-Token.'));
    },
  });
  const accessLog = logger.child({ service });
  const logAccess = (req: http.IncomingMessage, res: http.ServerResponse, client: InternalClient) => {
    const started = performance.now();
    res.once('finish', () => {
      accessLog.info(
        {
          client: client.name,
          requestId: res.getHeader(requestIdHeader),
          method: req.method,
          // The path names the procedures (comma-separated in a batch); the query holds inputs, not logged.
          path: req.url?.split('?')[0],
          status: res.statusCode,
          ms: Math.round(performance.now() - started),
        },
        'internal client call',
      );
    });
  };

  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.url === '/health') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, service: options.service }));
      return;
    }
    if (req.method === 'GET' && req.url === metricsPath) {
      const secret = metricsSecretOf(req);
      if (isInternalToken(secret, internalToken) || clientMayReadMetrics(clients.identify(secret))) void sendMetrics(res);
      else res.writeHead(401, { 'content-type': 'application/json' }).end(metricsRefusal);
      return;
    }
    const secret = headerValue(req, internalTokenHeader);
    if (!isInternalToken(secret, internalToken)) {
      const client = clients.identify(secret);
      if (client) {
        clientOfRequest.set(req, client);
        // The id the call's log lines carry, chosen here so the access line can name it too.
        req.headers[requestIdHeader] ??= newRequestId();
        res.setHeader(requestIdHeader, req.headers[requestIdHeader]);
        logAccess(req, res, client);
        // tRPC's handler answers its own failures; nothing is left to await.
        if (!serviceCall(req, res)) void trpcHandler(req, res);
        return;
      }
      if (req.url?.startsWith('/trpc/')) {
        refuseUnauthenticated(req, res);
        return;
      }
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: 'UNAUTHENTICATED', message: 'Service calls need a valid X-Internal-Token.' } }));
      return;
    }
    if (req.method === 'GET' && req.url?.split('?')[0] === processFiguresPath) {
      sendProcessFigures(req.url, res);
      return;
    }
    if (!serviceCall(req, res)) void trpcHandler(req, res);
  };
  const server = http.createServer(withRequestSpans(handleInTurns(handle, options.turnBudgetMs ?? 0)));
  server.keepAliveTimeout = 65_000;
  watchEventLoop();

  await listen(server, { port: options.port, host: options.host, setting: options.portSetting ?? 'SERVICE_PORT' });
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host === '0.0.0.0' ? '127.0.0.1' : options.host}:${port}`;
  logger.info({ service: options.service, url }, 'service listening');

  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        clients.close();
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
