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

export const internalTokenHeader = 'x-internal-token';
export const requestIdHeader = 'x-request-id';
export const callerHeader = 'x-caller';

/** Constant-time comparison of a presented internal token with the configured one. */
export function isInternalToken(given: string | undefined, expected: string | undefined): boolean {
  return expected !== undefined && sameSecret(given, expected);
}

function sameSecret(given: string | undefined, expected: string): boolean {
  if (!given) return false;
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
 * Serves a service router over tRPC-HTTP. Every call must carry the internal token, so a service
 * port is not an open door; the caller's request id is restored so logs stay correlated.
 */
export async function startServiceServer(options: {
  service: string;
  router: AnyRouter;
  port: number;
  host: string;
  /** The setting that chose `port`, named when the port is taken. */
  portSetting?: string;
  internalToken: string;
  logger: Logger;
  /** REQUEST_TURN_BUDGET_MS (see `handleInTurns`); unset, every request starts at once. */
  turnBudgetMs?: number;
}): Promise<ServiceServer> {
  const { router, internalToken, logger } = options;
  const contextOf = (req: http.IncomingMessage) => ({
    requestId: headerValue(req, requestIdHeader) ?? newRequestId(),
    caller: headerValue(req, callerHeader) ?? 'unknown',
  });
  const serviceCall = createServiceCallHandler(router, contextOf);
  const trpcHandler = createHTTPHandler({ router, basePath: '/trpc/', createContext: ({ req }) => contextOf(req) });

  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.url === '/health') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, service: options.service }));
      return;
    }
    if (!sameSecret(headerValue(req, internalTokenHeader), internalToken)) {
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: 'UNAUTHENTICATED', message: 'Service calls need a valid X-Internal-Token.' } }));
      return;
    }
    if (req.method === 'GET' && req.url?.split('?')[0] === processFiguresPath) {
      sendProcessFigures(req.url, res);
      return;
    }
    serviceCall(req, res) || trpcHandler(req, res);
  };
  const server = http.createServer(handleInTurns(handle, options.turnBudgetMs ?? 0));
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
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
