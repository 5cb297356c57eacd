import express, { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import type { AppError } from '@vrs/kit';
import { crossSiteFormRefusal, csrfProtection } from '../auth/csrf';
import { resolvePrincipal } from '../auth/resolve-principal';
import { sessionCookieAuthenticator } from '../auth/session-authenticators';
import { rotateSessionCookie } from '../auth/session-rotation';
import { html, page, pageStyles, sendFormError, type SafeHtml } from './html';
import { devMailPage } from './pages/dev-mail';
import { dashboardPage } from './pages/dashboard';
import { forgotPassword, forgotPasswordPage } from './pages/forgot-password';
import { createKey, keysListPage, revokeKey } from './pages/keys';
import { resetPassword, resetPasswordPage } from './pages/reset-password';
import { revokeSessionFromPage, sessionsPage } from './pages/sessions';
import { signIn, signInPage } from './pages/signin';
import { signOut } from './pages/signout';
import { signUp, signUpPage } from './pages/signup';
import { verifyEmailPage } from './pages/verify-email';
import { createSignInLimits } from './signin-limits';
import { failOrThrow } from './forms';
import { devicePages } from './pages/device';
import type { PageDeps, WebDeps } from './web-deps';

/**
 * The first-party web app (ADR 0034), outside /v1: plain server-rendered HTML forms that work
 * without JavaScript. Pages authenticate with the session cookie only; every form that changes
 * something carries the session's CSRF token. Each page lives in `pages/`.
 */
export function createWebRouter(deps: WebDeps): Router {
  const { config, log } = deps;
  const web = Router();
  web.use(...webPageSteps(deps));
  web.post(['/signin', '/signup', '/forgot-password', '/reset-password'], crossSiteFormRefusal({ publicBaseUrl: config.PUBLIC_BASE_URL }));

  const pages: PageDeps = {
    ...deps,
    countSignInAttempt: createSignInLimits(deps.counter, {
      perEmail: config.SIGNIN_ATTEMPTS_PER_EMAIL,
      perIp: config.SIGNIN_ATTEMPTS_PER_IP,
      windowMs: config.SIGNIN_WINDOW_MS,
      log,
    }),
    deliver: (message) =>
      deps.mailer.send(message).catch((error: unknown) => log.error({ err: error, subject: message.subject }, 'mail could not be sent')),
  };

  web.get('/web.css', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('css').send(pageStyles);
  });
  web.get('/', dashboardPage(pages));
  web.get('/signup', signUpPage);
  web.post('/signup', signUp(pages));
  web.get('/signin', signInPage);
  web.post('/signin', signIn(pages));
  web.post('/signout', signOut(pages));
  web.get('/verify-email', verifyEmailPage(pages));
  web.get('/forgot-password', forgotPasswordPage);
  web.post('/forgot-password', forgotPassword(pages));
  web.get('/reset-password', resetPasswordPage);
  web.post('/reset-password', resetPassword(pages));
  web.get('/keys', keysListPage(pages));
  web.post('/keys', createKey(pages));
  web.post('/keys/:id/revoke', revokeKey(pages));
  web.get('/sessions', sessionsPage(pages));
  web.post('/sessions/:id/revoke', revokeSessionFromPage(pages));
  if (config.NODE_ENV !== 'production') web.get('/_dev/mail', devMailPage(pages));
  const device = devicePages(deps);
  web.get('/device', device.show);
  web.post('/device', device.decide);

  web.use(formErrorPage(errorHelp));
  return web;
}

/**
 * What a page of the web app runs first, the OAuth consent page too: its form body, the session
 * cookie as the only credential, the cookie's rotation, and the CSRF check.
 */
export function webPageSteps(deps: WebDeps): RequestHandler[] {
  const { config, services, sessions, cookie, log } = deps;
  return [
    express.urlencoded({ extended: false, limit: config.BODY_LIMIT_BYTES, parameterLimit: 50 }),
    resolvePrincipal([sessionCookieAuthenticator(sessions, cookie)]),
    rotateSessionCookie(services, sessions, { cookie, graceMs: config.SESSION_ROTATION_GRACE_MS, log }),
    csrfProtection({ publicBaseUrl: config.PUBLIC_BASE_URL }),
  ];
}

/** A refused form (CSRF, rate limit, a service's error) is the envelope for scripts, a page for people. */
export function formErrorPage(help: (error: AppError) => SafeHtml): ErrorRequestHandler {
  // Four parameters make it an error handler; what failOrThrow throws goes on to the next one (the 500 handler).
  return (error, req, res, _next) => {
    failOrThrow(error, (appError) =>
      sendFormError(req, res, appError, (shown) => page(req, { title: 'Something went wrong', body: help(shown), error: shown })),
    );
  };
}

function errorHelp(error: AppError) {
  return error.status === 401 ? html`<p><a href="/signin">Sign in again</a>.</p>` : html`<p><a href="/">Back to the dashboard</a>.</p>`;
}
