import type { Request, Response } from 'express';
import { csrfField, html, page, sendPage } from '../html';
import { done, signedInOrRedirect } from '../forms';
import type { PageDeps } from '../web-deps';

/** `GET /sessions`: the account's web and CLI sessions (this one marked), each with a sign-out button. */
export function sessionsPage(deps: PageDeps) {
  return async (req: Request, res: Response) => {
    const principal = signedInOrRedirect(req, res, deps);
    if (!principal) return;
    const csrfToken = principal.cookieSession.csrfToken;
    const sessions = await deps.services.billing.sessions.list.query({ accountId: principal.accountId, limit: 100 });
    const body = html`<table>
        <thead><tr><th scope="col">Kind</th><th scope="col">Signed in</th><th scope="col">Expires</th><th scope="col">Device</th><th scope="col"></th></tr></thead>
        <tbody>${sessions.data.map(
          (session) => html`<tr data-session-id="${session.id}">
            <td>${session.kind === 'web' ? 'Browser' : session.kind === 'oauth' ? 'App (OAuth)' : 'Command line'}${session.label ? html` (${session.label})` : ''}</td>
            <td>${session.createdAt}</td><td>${session.expiresAt}</td>
            <td>${session.userAgent ?? ''} ${session.ip ? html`<br />${session.ip}` : ''}</td>
            <td>${
              session.id === principal.sessionId
                ? html`<strong>This session</strong>`
                : html`<form method="post" action="/sessions/${session.id}/revoke">${csrfField(csrfToken)}<button type="submit">Sign out</button></form>`
            }</td>
          </tr>`,
        )}</tbody>
      </table>
      ${sessions.hasMore ? html`<p>Only the newest 100 are shown.</p>` : ''}`;
    sendPage(res, 200, page(req, { title: 'Sessions', body, signedIn: { csrfToken } }));
  };
}

/** `POST /sessions/{id}/revoke`: signs that session out (404 SESSION_NOT_FOUND when it is not one of yours, or already ended). */
export function revokeSessionFromPage(deps: PageDeps) {
  return async (req: Request, res: Response) => {
    const principal = signedInOrRedirect(req, res, deps);
    if (!principal) return;
    await deps.services.billing.sessions.revoke.mutate({ accountId: principal.accountId, sessionId: String(req.params.id) });
    done(req, res, '/sessions?notice=session-revoked', { id: req.params.id, revoked: true });
  };
}
