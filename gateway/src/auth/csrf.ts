import { timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '@vrs/kit';
import type { Principal } from '../context';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface CsrfRequest {
  method: string;
  principal: Principal | null | undefined;
  /** The Origin header, when the browser sent one. */
  origin: string | undefined;
  /** The origin this service is served from. */
  expectedOrigin: string;
  /** The token the request carries (X-CSRF-Token header, or the `_csrf` form field). */
  presented: string | undefined;
}

/**
 * The CSRF rule (ADR 0034): a request that may change something (any method but GET, HEAD,
 * OPTIONS) and is authenticated BY THE SESSION COOKIE must come from our origin when it names one,
 * and must carry its session's CSRF token, which only our pages know. A cookie is ambient — the
 * browser attaches it to a forged cross-site form too — while a bearer token, an API key or a demo
 * header is sent deliberately by the caller, so those requests are exempt.
 */
export function csrfFailure(request: CsrfRequest): AppError | null {
  if (safeMethods.has(request.method.toUpperCase())) return null;
  const session = request.principal?.scheme === 'sessionCookie' ? request.principal.cookieSession : undefined;
  if (!session) return null;
  if (request.origin !== undefined && request.origin !== request.expectedOrigin) {
    return new AppError('CSRF_ORIGIN_MISMATCH', undefined, { origin: request.origin });
  }
  if (request.presented === undefined || request.presented === '') return new AppError('CSRF_TOKEN_MISSING');
  const presented = Buffer.from(request.presented);
  const expected = Buffer.from(session.csrfToken);
  if (expected.length === 0 || presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
    return new AppError('CSRF_TOKEN_INVALID');
  }
  return null;
}

/** Our own origin: PUBLIC_BASE_URL's when configured, else the one the request was addressed to. */
export function expectedOriginOf(req: Request, publicBaseUrl: string | undefined): string {
  return publicBaseUrl ? new URL(publicBaseUrl).origin : `${req.protocol}://${req.get('host')}`;
}

/** Express middleware applying `csrfFailure` after the principal is resolved (and, for forms, the body parsed). */
export function csrfProtection(options: { publicBaseUrl: string | undefined }) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const header = req.get('x-csrf-token');
    // The form field counts only in an HTML form's body; a JSON API body never carries it.
    const form = req.is('application/x-www-form-urlencoded') && typeof req.body === 'object' && req.body !== null;
    const field = form ? (req.body as Record<string, unknown>)._csrf : undefined;
    const failure = csrfFailure({
      method: req.method,
      principal: req.principal,
      origin: req.get('origin'),
      expectedOrigin: expectedOriginOf(req, options.publicBaseUrl),
      presented: header ?? (typeof field === 'string' ? field : undefined),
    });
    next(failure ?? undefined);
  };
}

/**
 * Login CSRF (ADR 0080): the forms that work without a session (sign-in, sign-up, password reset)
 * refuse a browser's cross-site post, which would sign a victim into an attacker's account or send
 * mail on a forged request. Browsers name the page a post comes from (Origin, Sec-Fetch-Site);
 * scripts and the CLI send neither and are let through, as are our own pages.
 */
export function crossSiteFormRefusal(options: { publicBaseUrl: string | undefined }) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const origin = req.get('origin');
    const crossSite =
      req.get('sec-fetch-site') === 'cross-site' || (origin !== undefined && origin !== expectedOriginOf(req, options.publicBaseUrl));
    next(crossSite ? new AppError('CSRF_ORIGIN_REFUSED', undefined, { origin: origin ?? null }) : undefined);
  };
}
