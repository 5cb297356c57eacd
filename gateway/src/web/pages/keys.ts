import type { Request, Response } from 'express';
import { scopeSchema, type Scope } from '@vrs/contracts';
import { AppError } from '@vrs/kit';
import { csrfField, html, page, sendFormError, sendPage, wantsJson, type SafeHtml } from '../html';
import { done, failOrThrow, field, signedInOrRedirect, type SignedIn } from '../forms';
import type { PageDeps } from '../web-deps';

const scopes = scopeSchema.options;

async function keysPage(req: Request, deps: PageDeps, principal: SignedIn, extra: { created?: SafeHtml; error?: AppError }) {
  const { csrfToken } = principal.cookieSession;
  const { data: keys } = await deps.services.billing.apiKeys.list.query({ accountId: principal.accountId, limit: 100 });
  const body = html`${extra.created ?? ''}
    <section aria-labelledby="create">
      <h2 id="create">Create a key</h2>
      <form method="post" action="/keys">
        ${csrfField(csrfToken)}
        <label for="name">Name</label>
        <input id="name" name="name" type="text" required maxlength="100" value="default" />
        <fieldset>
          <legend>Permissions</legend>
          ${scopes.map(
            (scope) =>
              html`<label><input type="checkbox" name="scopes" value="${scope}" ${scope === 'account:manage' ? '' : html`checked`} /> ${scope}</label>`,
          )}
        </fieldset>
        <button type="submit">Create key</button>
      </form>
    </section>
    <section aria-labelledby="list">
      <h2 id="list">Your keys</h2>
      ${
        keys.length
          ? html`<table>
              <thead><tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col">Permissions</th><th scope="col">Created</th><th scope="col">Revoke</th></tr></thead>
              <tbody>${keys.map(
                (key) => html`<tr>
                  <td>${key.name}</td><td><code>${key.prefix}</code></td><td>${key.scopes.join(', ')}</td><td>${key.createdAt}</td>
                  <td><form method="post" action="/keys/${key.id}/revoke">${csrfField(csrfToken)}<button type="submit" aria-label="Revoke ${key.name}">Revoke</button></form></td>
                </tr>`,
              )}</tbody>
            </table>`
          : html`<p>No keys yet.</p>`
      }
    </section>`;
  return page(req, { title: 'API keys', body, signedIn: principal.cookieSession, error: extra.error });
}

/** `GET /keys`: create a key, list them, revoke one. */
export function keysListPage(deps: PageDeps) {
  return async (req: Request, res: Response) => {
    const principal = signedInOrRedirect(req, res, deps);
    if (!principal) return;
    sendPage(res, 200, await keysPage(req, deps, principal, {}));
  };
}

function checkedScopes(req: Request): Scope[] {
  const raw = (req.body as Record<string, unknown> | undefined)?.scopes;
  return [raw].flat().filter((value): value is Scope => (scopes as readonly unknown[]).includes(value));
}

/** `POST /keys` {name, scopes…}: the new key is shown once, on the page this answers (never stored in clear). */
export function createKey(deps: PageDeps) {
  return async (req: Request, res: Response) => {
    const principal = signedInOrRedirect(req, res, deps);
    if (!principal) return;
    const name = (field(req, 'name') ?? '').trim();
    const chosen = checkedScopes(req);
    const fail = async (error: AppError) => {
      const rendered = await keysPage(req, deps, principal, { error });
      sendFormError(req, res, error, () => rendered);
    };
    if (name.length === 0 || name.length > 100) return fail(new AppError('VALIDATION_FAILED', 'name: 1 to 100 characters.'));
    if (chosen.length === 0) return fail(new AppError('VALIDATION_FAILED', 'scopes: choose at least one permission.'));
    try {
      const created = await deps.services.billing.apiKeys.create.mutate({ accountId: principal.accountId, name, scopes: chosen });
      const shown = html`<section class="notice" role="status" aria-labelledby="new-key">
          <h2 id="new-key">Your new key</h2>
          <p>Copy it now: it is shown only this once.</p>
          <p><code data-testid="new-key">${created.key}</code></p>
        </section>`;
      if (wantsJson(req)) {
        res.json(created);
        return;
      }
      sendPage(res, 200, await keysPage(req, deps, principal, { created: shown }));
    } catch (error) {
      failOrThrow(error, (appError) => void fail(appError));
    }
  };
}

/** `POST /keys/{id}/revoke`. */
export function revokeKey(deps: PageDeps) {
  return async (req: Request, res: Response) => {
    const principal = signedInOrRedirect(req, res, deps);
    if (!principal) return;
    await deps.services.billing.apiKeys.revoke.mutate({ accountId: principal.accountId, keyId: String(req.params.id) });
    deps.authCaches.forgetApiKey(String(req.params.id));
    done(req, res, '/keys?notice=key-revoked', { id: req.params.id, revoked: true });
  };
}
