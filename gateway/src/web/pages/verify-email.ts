import type { Request, Response } from 'express';
import { AppError } from '@vrs/kit';
import { html, page, sendFormError } from '../html';
import { done, failOrThrow } from '../forms';
import type { PageDeps } from '../web-deps';

/** `GET /verify-email?token=…`, the emailed link: verifies once (400 LINK_INVALID when used or unknown, 410 LINK_EXPIRED). */
export function verifyEmailPage({ services }: PageDeps) {
  return async (req: Request, res: Response) => {
    const fail = (error: AppError) =>
      sendFormError(req, res, error, (shown) =>
        page(req, {
          title: 'Verify your email address',
          body: html`<p>Sign in to get a new link: <a href="/signin">sign in</a>.</p>`,
          error: shown,
        }),
      );
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    if (token === '' || token.length > 200) return fail(new AppError('LINK_INVALID'));
    try {
      const { accountId } = await services.billing.identity.verifyEmail.mutate({ token });
      done(req, res, '/signin?notice=verified', { accountId, verified: true });
    } catch (error) {
      failOrThrow(error, fail);
    }
  };
}
