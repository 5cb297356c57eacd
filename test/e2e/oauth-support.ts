import { createHash, randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';

/** openid-client's options for this plain-http stack: nothing else of it is changed (ADR 0095). */
export const insecure = { execute: [oidc.allowInsecureRequests], algorithm: 'oauth2' as const };

/** A form-encoded POST, the way the RFCs send it; the JSON answer and the headers that matter. */
export async function postForm(url: string, fields: Record<string, string>) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? JSON.parse(text) : undefined,
    cacheControl: response.headers.get('cache-control'),
  };
}

/** A PKCE pair as RFC 7636 makes it. */
export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** A public client registered by RFC 7591, with raw JSON (so refusals can be read too). */
export async function registerClient(gatewayUrl: string, metadata: Record<string, unknown>) {
  const response = await fetch(`${gatewayUrl}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(metadata),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/**
 * A person approving on /oauth/authorize with their session cookie, as the consent form posts it
 * (CSRF token included). Returns where the server sends the browser.
 */
export async function approveConsent(authorizeUrl: string, signedIn: { cookie: string; csrfToken: string }, decision = 'approve') {
  const shown = await fetch(authorizeUrl, { headers: { cookie: signedIn.cookie }, redirect: 'manual' });
  const page = await shown.text();
  if (shown.status !== 200) throw new Error(`consent page answered ${shown.status}: ${page.slice(0, 300)}`);
  const form = new URLSearchParams();
  for (const match of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
    form.set(
      match[1]!,
      match[2]!.replace(/&#(\d+);/g, (_all, code: string) => String.fromCharCode(Number(code))),
    );
  for (const match of page.matchAll(/name="approved_scope" value="([^"]+)"/g)) form.append('approved_scope', match[1]!);
  form.set('decision', decision);
  const posted = await fetch(new URL('/oauth/authorize', authorizeUrl), {
    method: 'POST',
    headers: { cookie: signedIn.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
    redirect: 'manual',
  });
  return { status: posted.status, location: posted.headers.get('location'), page: posted.status === 303 ? '' : await posted.text() };
}
