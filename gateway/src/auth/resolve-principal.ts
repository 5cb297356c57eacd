import type { NextFunction, Request, Response } from 'express';
import type { AppError } from '@vrs/kit';
import type { Principal } from '../context';
import { toAppError } from '../errors/to-app-error';
import type { Authenticator } from './authenticator';

declare module 'express-serve-static-core' {
  interface Request {
    principal?: Principal | null;
    authError?: AppError;
  }
}

/**
 * Establishes who is calling before rate limiting (which is per account) and routing. It never
 * rejects by itself: operations decide whether they need a principal, so a public probe works with
 * a stale key, and a protected one reports the credential's own error.
 */
export function resolvePrincipal(authenticators: Authenticator[]) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    req.principal = null;
    try {
      for (const authenticator of authenticators) {
        const principal = await authenticator.authenticate(req);
        if (principal) {
          req.principal = principal;
          break;
        }
      }
    } catch (error) {
      req.authError = toAppError(error);
    }
    next();
  };
}
