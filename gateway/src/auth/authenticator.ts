import type { IncomingMessage } from 'node:http';
import { newRequestId, type RequestContext } from '@vrs/kit';
import type { Principal } from '../context';

/**
 * One authentication scheme. `null` means "this request carries no credential of mine"; a
 * credential that is present but wrong throws an AppError. Schemes are tried in order, so session
 * cookies and CLI session tokens slot in beside API keys without touching the others.
 */
export interface Authenticator {
  readonly scheme: Principal['scheme'];
  authenticate(req: IncomingMessage): Promise<Principal | null>;
}

export function bearerToken(req: IncomingMessage): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
}

/** The request id the gateway gave `req` (`assignRequestId`), for the service calls an authenticator makes; a new one outside the app. */
export function requestContextOf(req: IncomingMessage): RequestContext {
  const { requestId, trace } = req as IncomingMessage & Partial<RequestContext>;
  return { requestId: requestId ?? newRequestId(), trace };
}

export function singleHeader(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
