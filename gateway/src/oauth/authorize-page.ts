import type { Request, Response } from 'express';
import { authorizationCodeGrantType, codeChallengeSchema, type OAuthClient, type Scope } from '@vrs/contracts';
import { AppError } from '@vrs/kit';
import { toAppError } from '../errors/to-app-error';
import { signedInOrRedirect, type SignedIn } from '../web/forms';
import { csrfField, html, page, sendPage, wantsJson } from '../web/html';
import type { WebDeps } from '../web/web-deps';
import { checkResource, findClient, issuerOf, parseScope } from './clients';
import { scopeHelp } from '../web/pages/device';
import { oauthPaths } from './metadata';

/** The request's parameters, from the query (GET) or the consent form (POST). */
type Params = Record<string, string | undefined>;
const names = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'resource'];

function paramsOf(source: unknown): Params {
  const record = (typeof source === 'object' && source !== null ? source : {}) as Record<string, unknown>;
  const params: Params = {};
  // A parameter sent twice is as good as absent (RFC 6749 §3.1): it then fails the check that needs it.
  for (const name of names) params[name] = typeof record[name] === 'string' && record[name] !== '' ? (record[name] as string) : undefined;
  return params;
}

/** The client and redirect URI are trustworthy: from here on, refusals go back to the client (RFC 6749 §4.1.2.1). */
interface Checked {
  client: OAuthClient;
  redirectUri: string;
}

/** A request whose client or redirect URI cannot be trusted: a page, never a redirect (RFC 9700 §4.1: no open redirector). */
class UntrustedRequest extends Error {}

async function checkClient(deps: WebDeps, params: Params): Promise<Checked> {
  if (!params.client_id) throw new UntrustedRequest('The request names no client (client_id is missing).');
  const client = await findClient(deps.services, params.client_id);
  if (!client) throw new UntrustedRequest('The application that sent you here is not registered.');
  const redirectUri = params.redirect_uri ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined);
  if (!redirectUri) throw new UntrustedRequest('The request names no redirect_uri, and the application registered more than one.');
  if (!client.redirectUris.includes(redirectUri))
    throw new UntrustedRequest('The redirect_uri is not one the application registered; it must match exactly.');
  return { client, redirectUri };
}

/** A refusal the client hears at its redirect URI (RFC 6749 §4.1.2.1), with `state` and `iss` (RFC 9207). */
class ClientError extends Error {
  constructor(
    readonly error: string,
    description: string,
  ) {
    super(description);
  }
}

/** The scopes asked for, and the PKCE challenge the request carries (checked here). */
function checkRequest(req: Request, deps: WebDeps, params: Params, checked: Checked): { scopes: Scope[]; codeChallenge: string } {
  if (!checked.client.grantTypes.includes(authorizationCodeGrantType))
    throw new ClientError('unauthorized_client', 'The client is not registered for the authorization_code grant.');
  if (params.response_type !== 'code') throw new ClientError('unsupported_response_type', 'response_type must be code.');
  const codeChallenge = params.code_challenge;
  if (!codeChallenge) throw new ClientError('invalid_request', 'PKCE is required: send code_challenge and code_challenge_method=S256.');
  if (params.code_challenge_method !== 'S256')
    throw new ClientError('invalid_request', 'code_challenge_method must be S256 (plain is not accepted).');
  if (!codeChallengeSchema.safeParse(codeChallenge).success)
    throw new ClientError('invalid_request', 'code_challenge must be 43 base64url characters (BASE64URL(SHA256(code_verifier))).');
  try {
    checkResource(issuerOf(req, deps.config.PUBLIC_BASE_URL), params.resource);
    return { scopes: parseScope(params.scope), codeChallenge };
  } catch (error) {
    const appError = toAppError(error);
    const details = appError.details as { error?: string } | undefined;
    throw new ClientError(details?.error ?? 'invalid_request', appError.message);
  }
}

function redirectTo(res: Response, status: 302 | 303, target: string, query: Record<string, string | undefined>) {
  const url = new URL(target);
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
  res.setHeader('Cache-Control', 'no-store');
  res.redirect(status, url.href);
}

function errorPage(req: Request, res: Response, message: string, signedIn?: { csrfToken: string }) {
  if (wantsJson(req)) {
    res.status(400).setHeader('Cache-Control', 'no-store');
    res.json({ error: 'invalid_request', error_description: message });
    return;
  }
  const body = html`<p class="error" role="alert" data-testid="oauth-error">${message}</p>
    <p>You were not sent back to the application. <a href="/">Back to the dashboard</a>.</p>`;
  sendPage(res, 400, page(req, { title: 'This sign-in request is not valid', body, signedIn }));
}

function consentPage(req: Request, principal: SignedIn, params: Params, checked: Checked, scopes: Scope[], error?: AppError) {
  const name = checked.client.clientName ?? 'An application';
  const returnTo = new URL(checked.redirectUri);
  const body = html`<p><strong data-testid="client-name">${name}</strong> asks to use your account with these permissions.
      Untick any you do not want to give.</p>
    <p>The name is the application's own: approve only if you just started signing it in. It will send you back to
      <code data-testid="redirect-origin">${returnTo.origin}</code>.</p>
    <form method="post" action="${oauthPaths.authorization}">
      ${csrfField(principal.cookieSession.csrfToken)}
      ${names
        .filter((field) => params[field] !== undefined && field !== 'redirect_uri')
        .map((field) => html`<input type="hidden" name="${field}" value="${params[field]}" />`)}
      <input type="hidden" name="redirect_uri" value="${checked.redirectUri}" />
      <fieldset>
        <legend>Permissions</legend>
        ${scopes.map(
          (scope) => html`<div>
            <input type="checkbox" id="scope-${scope}" name="approved_scope" value="${scope}" checked />
            <label for="scope-${scope}"><code>${scope}</code> — ${scopeHelp[scope]}</label>
          </div>`,
        )}
      </fieldset>
      <button type="submit" name="decision" value="approve">Approve</button>
      <button type="submit" name="decision" value="deny">Deny</button>
    </form>`;
  return page(req, { title: `Allow ${name}?`, body, signedIn: principal.cookieSession, error });
}

/**
 * `/oauth/authorize` (RFC 6749 §4.1, OAuth 2.1, ADR 0095): the consent page of the authorization
 * code flow. An unknown client or a redirect URI it did not register is an error page, never a
 * redirect; every other refusal goes back to the client's redirect URI with `state`. The person must
 * be signed in to the web app (else /signin, then back here); approving is a CSRF-protected form.
 */
export function authorizePages(deps: WebDeps) {
  const signedIn = (req: Request, res: Response, params: Params): SignedIn | null => {
    const query = new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined));
    return signedInOrRedirect(req, res, deps, `${oauthPaths.authorization}?${query}`);
  };

  // Express 5 passes what this async handler throws on to the error handler.
  const handle = (decide: boolean) => async (req: Request, res: Response) => {
    const params = paramsOf(decide ? req.body : req.query);
    let checked: Checked;
    try {
      checked = await checkClient(deps, params);
    } catch (error) {
      if (error instanceof UntrustedRequest) {
        errorPage(req, res, error.message, req.principal?.cookieSession);
        return;
      }
      throw error;
    }
    const iss = issuerOf(req, deps.config.PUBLIC_BASE_URL);
    const status = decide ? 303 : 302;
    try {
      const { scopes: requested, codeChallenge } = checkRequest(req, deps, params, checked);
      const principal = signedIn(req, res, params);
      if (!principal) return;
      if (!decide) {
        sendPage(res, 200, consentPage(req, principal, params, checked, requested));
        return;
      }
      const form = req.body as Record<string, unknown>;
      if (form.decision !== 'approve') {
        redirectTo(res, status, checked.redirectUri, {
          error: 'access_denied',
          error_description: 'The user denied the request.',
          state: params.state,
          iss,
        });
        return;
      }
      const ticked = [form.approved_scope].flat().filter((scope) => scope !== undefined);
      const approved = ticked.filter((scope): scope is Scope => requested.includes(scope as Scope));
      const refusal = approved.length < ticked.length ? 'SCOPE_NOT_REQUESTED' : approved.length === 0 ? 'SCOPES_NOT_CHOSEN' : undefined;
      if (refusal) {
        sendPage(res, 422, consentPage(req, principal, params, checked, requested, new AppError(refusal)));
        return;
      }
      const issued = await deps.services.billing.oauth.issueCode.mutate({
        clientId: checked.client.clientId,
        accountId: principal.accountId,
        redirectUri: checked.redirectUri,
        codeChallenge,
        scopes: [...new Set(approved)],
        ttlSeconds: deps.config.OAUTH_CODE_TTL_SECONDS,
      });
      redirectTo(res, status, checked.redirectUri, { code: issued.code, state: params.state, iss });
    } catch (error) {
      if (error instanceof ClientError) {
        redirectTo(res, status, checked.redirectUri, { error: error.error, error_description: error.message, state: params.state, iss });
        return;
      }
      throw error;
    }
  };

  return { show: handle(false), decide: handle(true) };
}
