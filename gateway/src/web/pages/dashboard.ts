import type { Request, Response } from 'express';
import { html, page, sendPage } from '../html';
import { signedInOrRedirect } from '../forms';
import type { PageDeps } from '../web-deps';

/** `GET /`: the account, its credits and plan, and the most recent ledger entries. */
export function dashboardPage(deps: PageDeps) {
  const { services } = deps;
  return async (req: Request, res: Response) => {
    const principal = signedInOrRedirect(req, res, deps);
    if (!principal) return;
    const { accountId } = principal;
    const [account, status, ledger] = await Promise.all([
      services.billing.accounts.get.query({ accountId }),
      services.billing.status.get.query({ accountId }),
      services.billing.ledger.list.query({ accountId, limit: 10 }),
    ]);
    const body = html`<section aria-labelledby="account">
        <h2 id="account">Account</h2>
        <dl>
          <dt>Email</dt><dd data-testid="email">${account.email ?? '—'}</dd>
          <dt>Name</dt><dd>${account.name ?? '—'}</dd>
          <dt>Account id</dt><dd><code>${account.id}</code></dd>
        </dl>
      </section>
      <section aria-labelledby="credits">
        <h2 id="credits">Credits and plan</h2>
        <dl>
          <dt>Balance</dt><dd data-testid="balance">${status.credits.balance}</dd>
          <dt>Reserved</dt><dd>${status.credits.reserved}</dd>
          <dt>Plan</dt><dd>${status.plan} (${status.subscription.status})</dd>
        </dl>
      </section>
      <section aria-labelledby="ledger">
        <h2 id="ledger">Recent ledger entries</h2>
        ${
          ledger.data.length
            ? html`<table>
                <thead><tr><th scope="col">When</th><th scope="col">Kind</th><th scope="col">Amount</th><th scope="col">Operation</th></tr></thead>
                <tbody>${ledger.data.map(
                  (entry) =>
                    html`<tr><td>${entry.createdAt}</td><td>${entry.kind}</td><td>${entry.amount}</td><td>${entry.operation ?? ''}</td></tr>`,
                )}</tbody>
              </table>`
            : html`<p>No entries yet.</p>`
        }
      </section>`;
    sendPage(res, 200, page(req, { title: 'Dashboard', body, signedIn: principal.cookieSession }));
  };
}
