import type { Request, Response } from 'express';
import { emailSchema } from '@vrs/contracts';
import { AppError } from '@vrs/kit';
import { csrfField, html, page, sendFormError, sendPage } from '../html';
import { done, failOrThrow, field, publicBaseUrl } from '../forms';
import { passwordResetMail } from '../mail-messages';
import type { PageDeps } from '../web-deps';

function forgotForm(req: Request, email: string, error?: AppError): string {
  const body = html`<form method="post" action="/forgot-password">
      ${csrfField(req.principal?.cookieSession?.csrfToken)}
      <label for="email">Email address</label>
      <input id="email" name="email" type="email" autocomplete="email" required value="${email}" />
      <button type="submit">Send a reset link</button>
    </form>`;
  return page(req, { title: 'Forgot your password?', body, error });
}

export function forgotPasswordPage(req: Request, res: Response) {
  sendPage(res, 200, forgotForm(req, ''));
}

/** `POST /forgot-password` {email}: mails a reset link when the address has an account; the answer is the same either way. */
export function forgotPassword(deps: PageDeps) {
  const { services, config } = deps;
  return async (req: Request, res: Response) => {
    const rawEmail = field(req, 'email') ?? '';
    const fail = (error: AppError) => sendFormError(req, res, error, (shown) => forgotForm(req, rawEmail, shown));
    const email = emailSchema.safeParse(rawEmail);
    if (!email.success) return fail(new AppError('EMAIL_INVALID'));
    try {
      // Each request may send mail: limited like sign-in attempts.
      await deps.countSignInAttempt(email.data, req.ip);
      const issued = await services.billing.identity.requestPasswordReset.mutate({ email: email.data });
      if (issued) await deps.deliver(passwordResetMail(email.data, publicBaseUrl(req, config.PUBLIC_BASE_URL), issued.token));
      done(req, res, '/signin?notice=reset-sent', { status: 'reset_sent_if_registered' });
    } catch (error) {
      failOrThrow(error, fail);
    }
  };
}
