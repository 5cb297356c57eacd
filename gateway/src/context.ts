import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppError, HealthReport, Logger, TraceContext } from '@vrs/kit';
import type { PriceVariant, Scope } from '@vrs/contracts';
import type { AuthCaches } from './auth/auth-caches';
import type { CreditCalls } from './metering/credit-calls';
import type { GatewayServices } from './services';

/** Who is calling, as established by one of the authentication schemes. */
export interface Principal {
  accountId: string;
  scheme: 'bearerApiKey' | 'apiKey' | 'sessionCookie' | 'cliSession' | 'oauthToken' | 'demoUser';
  /** Permissions of a key or CLI session; a session cookie or demo user acts as the account owner. */
  scopes: ReadonlySet<Scope> | 'owner';
  keyId?: string;
  /** The web or CLI session the request authenticated with. */
  sessionId?: string;
  /** Session-cookie requests only: the presented token, its session's CSRF token, and whether it is due for rotation. */
  cookieSession?: { token: string; csrfToken: string; rotate: boolean };
}

/** Credit figures of this request, filled by metering and read when the response headers are written. */
export interface CreditFigures {
  charged?: number;
  remaining?: number;
  /** Set by an operation answered from saved data, so the cached price is charged instead of the fresh one. */
  variant?: PriceVariant;
  /** Only the cached price was reserved: the operation must be answered from saved data or not at all (ADR 0019). */
  savedOnly?: boolean;
  /** What metering reserved for this request, for an operation that hands it to a job (ADR 0019). */
  hold?: { reservationId: string; amount: number };
  /** The operation handed `hold` to a job that settles it when it ends: nothing is settled now. */
  heldByJob?: boolean;
}

export interface GatewayContext {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  /** With tracing on, the request's HTTP server span: its service calls go under it (ADR 0117). */
  trace?: TraceContext;
  principal: Principal | null;
  /** Set when a credential was presented but could not be accepted. */
  authError?: AppError;
  credits: CreditFigures;
  services: GatewayServices;
  /** This process's calls of billing's credit procedures, shared by its requests (ADR 0083). */
  creditCalls: CreditCalls;
  /** This process's credential caches, dropped for an account deleted here (ADR 0033). */
  authCaches: AuthCaches;
  /** The caller presented the internal token (operators, orchestrators): it may see dependency details. */
  internalCaller: boolean;
  /** Checks every dependency this gateway needs (readiness probe). */
  readiness: () => Promise<HealthReport>;
  /** What the device-flow operations need of the configuration (ADR 0036). */
  deviceFlow: {
    /** PUBLIC_BASE_URL, when set; else links point at the address the request came to. */
    publicBaseUrl: string | undefined;
    codeTtlSeconds: number;
    intervalSeconds: number;
    cliSessionTtlMs: number;
  };
  log: Logger;
}
