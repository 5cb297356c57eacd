import type { NextFunction, Request, Response } from 'express';
import { requestLogFields, type Logger } from '@vrs/kit';
import type { GatewayServices } from '../services';
import type { SessionVerifier } from './session-authenticators';
import { setSessionCookie, type SessionCookieSettings } from './session-cookie';

/**
 * Swaps a web session's token once it is older than WEB_SESSION_ROTATE_AFTER_MS and sets the new
 * cookie on this response. The old token keeps working for SESSION_ROTATION_GRACE_MS, so requests
 * the browser sent in parallel with it do not fail; of parallel rotations only one wins (billing's
 * conditional update), the others keep their token. A failed one leaves the session valid; the next request tries again.
 */
export function rotateSessionCookie(
  services: GatewayServices,
  verifier: SessionVerifier,
  options: { cookie: SessionCookieSettings; graceMs: number; log: Logger },
) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const session = req.principal?.cookieSession;
    if (session?.rotate && req.principal?.sessionId) {
      verifier.rotationSettled(session.token);
      try {
        const rotated = await services.billing.sessions.rotate.mutate({
          sessionId: req.principal.sessionId,
          token: session.token,
          graceMs: options.graceMs,
        });
        if (rotated) setSessionCookie(res, options.cookie, rotated.token, rotated.expiresAt);
      } catch (error) {
        options.log.warn({ err: error, sessionId: req.principal.sessionId, ...requestLogFields(req) }, 'session rotation failed');
      }
    }
    next();
  };
}
