import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { AppError } from '@vrs/kit';
import { csrfProtection } from '../auth/csrf';
import { resolvePrincipal } from '../auth/resolve-principal';
import { sessionCookieAuthenticator } from '../auth/session-authenticators';
import { rotateSessionCookie } from '../auth/session-rotation';
import { toAppError } from '../errors/to-app-error';
import { html, page, sendFormError } from './html';
import { devMailPage } from './pages/dev-mail';
import { devicePages } from './pages/device';
import type { WebDeps } from './web-deps';

/**
 * The first-party web app (ADR 0034), outside /v1: plain server-rendered HTML forms that work
 * without JavaScript. Pages authenticate with the session cookie only; every form that changes
 * something carries the session's CSRF token. Each page lives in `pages/`.
 */
export function createWebRouter(deps: WebDeps): Router {
  const { config, services, sessions, cookie, log } = deps;
  const web = Router();
  web.use(express.urlencoded({ extended: false, limit: config.BODY_LIMIT_BYTES, parameterLimit: 50 }));
  web.use(resolvePrincipal([sessionCookieAuthenticator(sessions, cookie)]));
  web.use(rotateSessionCookie(services, sessions, { cookie, graceMs: config.SESSION_ROTATION_GRACE_MS, log }));
  web.use(csrfProtection({ publicBaseUrl: config.PUBLIC_BASE_URL }));

  if (config.NODE_ENV !== 'production') web.get('/_dev/mail', devMailPage(deps));
  const device = devicePages(deps);
  web.get('/device', device.show);
  web.post('/device', device.decide);

  // A refused form (CSRF, rate limit, a service's error) is the envelope for scripts, a page for people.
  web.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
    const appError = toAppError(error);
    if (appError.code === 'INTERNAL_ERROR') {
      next(error);
      return;
    }
    sendFormError(req, res, appError, (shown) => page(req, { title: 'Something went wrong', body: errorHelp(shown), error: shown }));
  });
  return web;
}

function errorHelp(error: AppError) {
  return error.status === 401 ? html`<p><a href="/signin">Sign in again</a>.</p>` : html`<p><a href="/">Back to the dashboard</a>.</p>`;
}
