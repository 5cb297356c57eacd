import type { Request, Response } from 'express';
import { emailSchema, maxPasswordLength, minPasswordLength } from '@vrs/contracts';
import { AppError, forRequest } from '@vrs/kit';
import { csrfField, html, page, sendFormError, sendPage } from '../html';
import { done, failOrThrow, field, publicBaseUrl } from '../forms';
import { alreadyRegisteredMail, verificationMail } from '../mail-messages';
import type { PageDeps } from '../web-deps';

function signUpForm(req: Request, values: { email?: string; name?: string }, error?: AppError): string {
  const body = html`<form method="post" action="/signup">
      ${csrfField(req.principal?.cookieSession?.csrfToken)}
      <label for="name">Name (optional)</label>
      <input id="name" name="name" type="text" autocomplete="name" maxlength="200" value="${values.name ?? ''}" />
      <label for="email">Email address</label>
      <input id="email" name="email" type="email" autocomplete="email" required value="${values.email ?? ''}" />
      <label for="password">Password (${minPasswordLength} characters or more)</label>
      <input id="password" name="password" type="password" autocomplete="new-password" required minlength="${minPasswordLength}" maxlength="${maxPasswordLength}" />
      <button type="submit">Create account</button>
    </form>
    <p>Already have an account? <a href="/signin">Sign in</a>.</p>`;
  return page(req, { title: 'Create an account', body, error });
}

export function signUpPage(req: Request, res: Response) {
  sendPage(res, 200, signUpForm(req, {}));
}

/**
 * `POST /signup` {email, password[, name]}. Whether the address is new or taken, the visitor gets
 * the same answer ("check your inbox"); a new (or still unverified) account is mailed a
 * verification link, a verified one is told someone tried — so the form reveals no account.
 */
export function signUp(deps: PageDeps) {
  const { services, config } = deps;
  return async (req: Request, res: Response) => {
    const rawEmail = field(req, 'email') ?? '';
    const name = field(req, 'name')?.trim() || undefined;
    const password = field(req, 'password') ?? '';
    const fail = (error: AppError) => sendFormError(req, res, error, (shown) => signUpForm(req, { email: rawEmail, name }, shown));
    const email = emailSchema.safeParse(rawEmail);
    if (!email.success) return fail(new AppError('EMAIL_INVALID'));
    if (password.length < minPasswordLength || password.length > maxPasswordLength) return fail(new AppError('PASSWORD_TOO_WEAK'));
    if (name !== undefined && name.length > 200) return fail(new AppError('VALIDATION_FAILED', 'name: at most 200 characters.'));
    try {
      // The account's opening grant is a ledger line: it names this request.
      const result = await forRequest(services.billing, { requestId: req.requestId, trace: req.trace }).identity.signUp.mutate({
        email: email.data,
        password,
        ...(name ? { name } : {}),
      });
      const baseUrl = publicBaseUrl(req, config.PUBLIC_BASE_URL);
      await deps.deliver(
        result.verificationToken
          ? verificationMail(email.data, baseUrl, result.verificationToken)
          : alreadyRegisteredMail(email.data, baseUrl),
      );
      done(req, res, '/signin?notice=signed-up', { status: 'verification_sent', email: email.data });
    } catch (error) {
      failOrThrow(error, fail);
    }
  };
}
