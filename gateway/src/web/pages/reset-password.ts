import type { Request, Response } from 'express';
import { maxPasswordLength, minPasswordLength } from '@vrs/contracts';
import { AppError } from '@vrs/kit';
import { clearSessionCookie } from '../../auth/session-cookie';
import { csrfField, html, page, sendFormError, sendPage } from '../html';
import { done, failOrThrow, field } from '../forms';
import type { PageDeps } from '../web-deps';

function resetForm(req: Request, token: string, error?: AppError): string {
  const body = html`<form method="post" action="/reset-password">
      ${csrfField(req.principal?.cookieSession?.csrfToken)}
      <input type="hidden" name="token" value="${token}" />
      <label for="password">New password (${minPasswordLength} characters or more)</label>
      <input id="password" name="password" type="password" autocomplete="new-password" required minlength="${minPasswordLength}" maxlength="${maxPasswordLength}" />
      <p>Every session of the account is signed out. API keys keep working unless you revoke them here too.</p>
      <label class="choice"><input type="checkbox" name="revokeApiKeys" value="on" /> Also revoke every API key of the account</label>
      <button type="submit">Set the new password</button>
    </form>`;
  return page(req, { title: 'Choose a new password', body, error });
}

/** `GET /reset-password?token=…`: the form. The token is checked (and used) only when the form is sent. */
export function resetPasswordPage(req: Request, res: Response) {
  const token = typeof req.query.token === 'string' ? req.query.token.slice(0, 200) : '';
  sendPage(res, 200, resetForm(req, token));
}

/** The checkbox of the form (`on`), or `true` from a JSON caller. */
const checked = (value: unknown) => value === true || value === 'on' || value === 'true';

/**
 * `POST /reset-password` {token, password, revokeApiKeys?}: sets the password once per link (400
 * LINK_INVALID, 410 LINK_EXPIRED) and signs out every session of the account, this browser's
 * included, and with `revokeApiKeys` revokes its API keys too. This gateway stops trusting them at
 * once; other replicas within AUTH_CACHE_TTL_MS (ADR 0082).
 */
export function resetPassword(deps: PageDeps) {
  const { services } = deps;
  return async (req: Request, res: Response) => {
    const token = field(req, 'token') ?? '';
    const password = field(req, 'password') ?? '';
    const fail = (error: AppError) => sendFormError(req, res, error, (shown) => resetForm(req, token, shown));
    if (token === '' || token.length > 200) return fail(new AppError('LINK_INVALID'));
    if (password.length < minPasswordLength || password.length > maxPasswordLength) return fail(new AppError('PASSWORD_TOO_WEAK'));
    try {
      const revokeApiKeys = checked((req.body as Record<string, unknown> | undefined)?.revokeApiKeys);
      const { accountId } = await services.billing.identity.resetPassword.mutate({ token, password, revokeApiKeys });
      // This gateway trusts none of the account's cached sessions (nor keys) any more, nor this browser's.
      deps.authCaches.forgetAccount(accountId);
      const current = req.principal?.cookieSession;
      if (current) deps.sessions.forget(current.token);
      clearSessionCookie(res, deps.cookie);
      done(req, res, '/signin?notice=password-reset', { accountId, passwordReset: true, apiKeysRevoked: revokeApiKeys });
    } catch (error) {
      failOrThrow(error, fail);
    }
  };
}
