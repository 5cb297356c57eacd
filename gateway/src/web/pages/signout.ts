import type { Request, Response } from 'express';
import { clearSessionCookie } from '../../auth/session-cookie';
import { done } from '../forms';
import type { PageDeps } from '../web-deps';

/**
 * `POST /signout` (CSRF-checked like every cookie write): ends the session server-side, so the
 * cookie is worthless even if it was copied, and clears it. Signing out when already signed out
 * just clears the cookie.
 */
export function signOut(deps: PageDeps) {
  return async (req: Request, res: Response) => {
    const principal = req.principal;
    if (principal?.cookieSession && principal.sessionId) {
      deps.sessions.forget(principal.cookieSession.token);
      await deps.services.billing.sessions.revoke
        .mutate({ accountId: principal.accountId, sessionId: principal.sessionId })
        .catch((error: unknown) => deps.log.warn({ err: error, sessionId: principal.sessionId }, 'sign-out: session already ended'));
    }
    clearSessionCookie(res, deps.cookie);
    done(req, res, '/signin?notice=signed-out', { signedOut: true });
  };
}
