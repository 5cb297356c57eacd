import type { Request, Response } from 'express';
import { AppError } from '@vrs/kit';
import type { Principal } from '../context';
import { clearSessionCookie } from '../auth/session-cookie';
import { toAppError } from '../errors/to-app-error';
import { wantsJson } from './html';
import type { WebDeps } from './web-deps';

/** A text field of a form (or JSON) body; anything else counts as absent. */
export function field(req: Request, name: string): string | undefined {
  const value = typeof req.body === 'object' && req.body !== null ? (req.body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** A loopback host (`localhost`, `127.x.x.x`, `[::1]`), with or without a port: a developer's own machine. */
function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const hostname = URL.parse(`http://${host}`)?.hostname ?? '';
  return hostname === 'localhost' || hostname.endsWith('.localhost') || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * Where links in mail point (ADR 0080): PUBLIC_BASE_URL whenever it is set (production refuses to
 * start without it). Unset, outside production, a request addressed to a loopback host gets links
 * to that host; any other Host header, which whoever sends the request chooses, gets the loopback
 * default on this server's port, so a reset link cannot be pointed at someone else's server.
 */
export function publicBaseUrl(req: Request, configured: string | undefined): string {
  if (configured) return configured.replace(/\/+$/, '');
  const host = req.get('host');
  if (isLoopbackHost(host)) return `${req.protocol}://${host}`;
  return `http://127.0.0.1:${req.socket.localPort}`;
}

/** A same-site path to go back to after signing in; anything else (another host, `//host`) is ignored. */
export function safeNext(value: unknown): string | undefined {
  return typeof value === 'string' && /^\/(?![/\\])/.test(value) && value.length <= 500 ? value : undefined;
}

/** 303 after a form (the browser then GETs the target); JSON callers get `json` instead. */
export function done(req: Request, res: Response, target: string, json: unknown): void {
  if (wantsJson(req)) {
    res.status(200).json(json);
    return;
  }
  res.redirect(303, target);
}

/** A page's principal: the session cookie is the only credential pages accept (`webPageSteps`). */
export type SignedIn = Principal & { sessionId: string; cookieSession: NonNullable<Principal['cookieSession']> };

/**
 * The signed-in principal of a page, or null after answering: a browser goes to /signin (and a
 * stale cookie is cleared), a JSON caller gets 401 in the envelope.
 */
export function signedInOrRedirect(req: Request, res: Response, deps: WebDeps, back: string = req.originalUrl): SignedIn | null {
  const principal = req.principal;
  // Only the session-cookie scheme sets `cookieSession`.
  if (principal?.cookieSession && principal.sessionId) return principal as SignedIn;
  if (req.authError) clearSessionCookie(res, deps.cookie);
  if (wantsJson(req)) throw req.authError ?? new AppError('UNAUTHENTICATED', 'Sign in first.');
  res.redirect(303, `/signin?next=${encodeURIComponent(back)}`);
  return null;
}

/** A form's failure goes back to its page with the error; an unexpected one goes on to the 500 handler. */
export function failOrThrow(error: unknown, fail: (error: AppError) => void): void {
  const appError = toAppError(error);
  if (appError.code === 'INTERNAL_ERROR') throw error;
  fail(appError);
}
