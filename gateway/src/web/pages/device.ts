import type { Request, Response } from 'express';
import type { PendingDeviceAuthorization } from '@vrs/contracts';
import { AppError } from '@vrs/kit';
import { toAppError } from '../../errors/to-app-error';
import { failOrThrow, signedInOrRedirect, type SignedIn } from '../forms';
import { csrfField, html, page, sendFormError, sendPage, wantsJson } from '../html';
import { userCodeAttempts } from '../user-code-attempts';
import type { WebDeps } from '../web-deps';

/** What each scope lets the client do, in the words of SCOPES.md, for /device and the OAuth consent page. */
export const scopeHelp: Partial<Record<string, string>> = {
  'data:read': 'read YouTube data and your research data',
  'data:write': 'create, change and delete your research data',
  'account:access': "use your account's private material (private evidence search)",
  'billing:read': 'see your billing status, ledger and plans',
  'account:manage': 'manage your API keys, sessions and account',
  'agents:run': 'start and cancel agent runs',
  'monitors:write': 'create and change monitors, webhooks and digests',
};

/**
 * The approval page is for a signed-in person: anyone else goes to sign in and comes back to the
 * page for the same code (a POST cannot be replayed after sign-in); a JSON caller gets the 401 envelope.
 */
function signedIn(req: Request, res: Response, deps: WebDeps): SignedIn | null {
  const userCode = textOf(req.method === 'GET' ? req.query.user_code : (req.body as Record<string, unknown> | undefined)?.user_code);
  return signedInOrRedirect(req, res, deps, userCode ? `/device?user_code=${encodeURIComponent(userCode)}` : '/device');
}

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 32) : undefined;
}

function entryForm(req: Request, principal: SignedIn, typed: string | undefined, error?: AppError): string {
  const body = html`<p>Enter the code your terminal shows to let that command-line client use your account.</p>
    <form method="get" action="/device">
      <label for="user_code">Code</label>
      <input type="text" id="user_code" name="user_code" value="${typed ?? ''}" autocomplete="off" autocapitalize="characters"
        spellcheck="false" placeholder="XXXX-XXXX" required />
      <button type="submit">Continue</button>
    </form>`;
  return page(req, { title: 'Sign in a device', body, signedIn: principal.cookieSession, error });
}

function confirmForm(req: Request, principal: SignedIn, pending: PendingDeviceAuthorization, error?: AppError): string {
  const body = html`<p>Check that your terminal shows this code: <strong data-testid="user-code">${pending.userCode}</strong>.
      If you did not just start a sign-in, deny it.</p>
    <p><strong>${pending.clientName ?? 'A command-line client'}</strong> asks to use your account with these permissions.
      Untick any you do not want to give.</p>
    <form method="post" action="/device">
      ${csrfField(principal.cookieSession.csrfToken)}
      <input type="hidden" name="user_code" value="${pending.userCode}" />
      <fieldset>
        <legend>Permissions</legend>
        ${pending.scopes.map(
          (scope) => html`<div>
            <input type="checkbox" id="scope-${scope}" name="scope" value="${scope}" checked />
            <label for="scope-${scope}" class="choice"><code>${scope}</code> — ${scopeHelp[scope] ?? scope}</label>
          </div>`,
        )}
      </fieldset>
      <p>The sign-in expires at ${pending.expiresAt}.</p>
      <button type="submit" name="decision" value="approve">Approve</button>
      <button type="submit" name="decision" value="deny">Deny</button>
    </form>`;
  return page(req, { title: 'Approve this device?', body, signedIn: principal.cookieSession, error });
}

/**
 * `/device` (RFC 8628 §3.3, ADR 0036): enter the user code (or arrive with `?user_code=` from
 * verification_uri_complete), see which client asks for which scopes, approve some or all, or
 * deny. Wrong codes count against the account, then the IP at a higher bound (USER_CODE_RATE_LIMITED).
 */
export function devicePages(deps: WebDeps) {
  const { services, config } = deps;
  const attempts = userCodeAttempts(deps.counter, {
    perAccount: config.DEVICE_USER_CODE_ATTEMPTS,
    perIp: config.DEVICE_USER_CODE_ATTEMPTS_PER_IP,
    windowMs: config.DEVICE_RATE_LIMIT_WINDOW_MS,
    log: deps.log,
  });

  /**
   * Looks a typed code up, counting it as a guess unless it named a real sign-in; a refusal is
   * answered with `fail`, and then there is nothing to return.
   */
  async function lookup(principal: SignedIn, ip: string, typed: string, fail: (error: AppError) => void) {
    const attempt = await attempts.begin(principal.accountId, ip);
    try {
      const pending = await services.billing.device.lookup.query({ userCode: typed });
      await attempt.release();
      return pending;
    } catch (error) {
      if (toAppError(error).code !== 'USER_CODE_INVALID') await attempt.release();
      failOrThrow(error, fail);
      return undefined;
    }
  }

  // Express 5 passes what these async handlers throw on to the error handler.
  const show = async (req: Request, res: Response) => {
    const principal = signedIn(req, res, deps);
    if (!principal) return;
    const typed = textOf(req.query.user_code);
    if (!typed) {
      sendPage(res, 200, entryForm(req, principal, undefined));
      return;
    }
    const pending = await lookup(principal, req.ip ?? 'unknown', typed, (error) =>
      sendFormError(req, res, error, (shown) => entryForm(req, principal, typed, shown)),
    );
    if (!pending) return;
    if (wantsJson(req)) {
      res.setHeader('Cache-Control', 'no-store');
      res.json(pending);
      return;
    }
    sendPage(res, 200, confirmForm(req, principal, pending));
  };

  const decide = async (req: Request, res: Response) => {
    const principal = signedIn(req, res, deps);
    if (!principal) return;
    const form = (req.body ?? {}) as Record<string, unknown>;
    const typed = textOf(form.user_code) ?? '';
    const decision = form.decision;
    const scopes = [form.scope].flat().filter((scope): scope is string => typeof scope === 'string');
    const fail = (error: AppError) => sendFormError(req, res, error, (shown) => entryForm(req, principal, typed, shown));
    if (decision !== 'approve' && decision !== 'deny') {
      fail(new AppError('VALIDATION_FAILED', 'decision: choose approve or deny.'));
      return;
    }
    const pending = await lookup(principal, req.ip ?? 'unknown', typed, fail);
    if (!pending) return;
    try {
      const decided =
        decision === 'approve'
          ? await services.billing.device.approve.mutate({
              accountId: principal.accountId,
              userCode: typed,
              scopes: scopes as PendingDeviceAuthorization['scopes'],
            })
          : await services.billing.device.deny.mutate({ accountId: principal.accountId, userCode: typed });
      if (wantsJson(req)) {
        res.json(decided);
        return;
      }
      const client = decided.clientName ?? 'The command-line client';
      const approved = decided.status === 'approved';
      const title = approved ? 'Device approved' : 'Device denied';
      const body = approved
        ? html`<p class="notice" role="status" data-outcome="approved">${client} is signed in with ${decided.scopes.join(', ')}.
              Return to your terminal; you can sign it out at any time on <a href="/sessions">Sessions</a>.</p>`
        : html`<p class="notice" role="status" data-outcome="denied">The sign-in was denied; ${client} gets no access.</p>`;
      sendPage(res, 200, page(req, { title, body, signedIn: principal.cookieSession }));
    } catch (error) {
      // A refused choice (no scope ticked, a scope not asked for) goes back to the same question.
      failOrThrow(error, (shown) => sendFormError(req, res, shown, (again) => confirmForm(req, principal, pending, again)));
    }
  };

  return { show, decide };
}
