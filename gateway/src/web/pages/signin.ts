import type { Request, Response } from 'express';
import { emailSchema } from '@vrs/contracts';
import { AppError } from '@vrs/kit';
import { setSessionCookie } from '../../auth/session-cookie';
import { csrfField, html, page, sendFormError, sendPage } from '../html';
import { done, failOrThrow, field, publicBaseUrl, safeNext } from '../forms';
import { verificationMail } from '../mail-messages';
import type { PageDeps } from '../web-deps';

function signInForm(req: Request, values: { email?: string; next?: string }, error?: AppError): string {
  const body = html`<form method="post" action="/signin">
      ${csrfField(req.principal?.cookieSession?.csrfToken)}
      ${values.next ? html`<input type="hidden" name="next" value="${values.next}" />` : ''}
      <label for="email">Email address</label>
      <input id="email" name="email" type="email" autocomplete="username" required value="${values.email ?? ''}" />
      <label for="password">Password</label>
      <input id="password" name="password" type="password" autocomplete="current-password" required />
      <button type="submit">Sign in</button>
    </form>
    <p><a href="/forgot-password">Forgot your password?</a> · <a href="/signup">Create an account</a></p>`;
  return page(req, { title: 'Sign in', body, error });
}

export function signInPage(req: Request, res: Response) {
  sendPage(res, 200, signInForm(req, { next: safeNext(req.query.next) }));
}

/**
 * `POST /signin` {email, password[, next]}. Wrong password and unknown address answer the same
 * (401 INVALID_CREDENTIALS); a correct password of an unverified account is 403 EMAIL_NOT_VERIFIED
 * and sends a new link. Attempts are limited per address and per IP (429 SIGNIN_RATE_LIMITED).
 */
export function signIn(deps: PageDeps) {
  const { services, config, cookie } = deps;
  return async (req: Request, res: Response) => {
    const rawEmail = field(req, 'email') ?? '';
    const next = safeNext(field(req, 'next'));
    const fail = (error: AppError) => sendFormError(req, res, error, (shown) => signInForm(req, { email: rawEmail, next }, shown));
    const email = emailSchema.safeParse(rawEmail);
    if (!email.success) return fail(new AppError('EMAIL_INVALID'));
    try {
      await deps.countSignInAttempt(email.data, req.ip);
      const result = await services.billing.identity.signIn.mutate({ email: email.data, password: field(req, 'password') ?? '' });
      if (!result.verified) {
        if (result.verificationToken) {
          await deps.deliver(verificationMail(email.data, publicBaseUrl(req, config.PUBLIC_BASE_URL), result.verificationToken));
        }
        return fail(new AppError('EMAIL_NOT_VERIFIED'));
      }
      const session = await services.billing.sessions.create.mutate({
        accountId: result.accountId,
        kind: 'web',
        scopes: null,
        ttlMs: config.WEB_SESSION_TTL_MS,
        userAgent: req.get('user-agent')?.slice(0, 500) ?? null,
        ip: req.ip ?? null,
        label: null,
      });
      setSessionCookie(res, cookie, session.token, session.expiresAt);
      done(req, res, next ?? '/', {
        accountId: result.accountId,
        sessionId: session.sessionId,
        csrfToken: session.csrfToken,
        expiresAt: session.expiresAt,
      });
    } catch (error) {
      failOrThrow(error, fail);
    }
  };
}
