import { randomBytes } from 'node:crypto';
import { linkIn, waitForMail } from './smtp-inbox';

/** The web app's routes driven over HTTP as a script would (JSON answers), for tests that need a signed-in account. */

export interface WebSession {
  accountId: string;
  sessionId: string;
  /** `name=value` of the session cookie, ready for a Cookie header. */
  cookie: string;
  csrfToken: string;
}

/** A fresh address no other test uses. */
export function uniqueEmail(label = 'user'): string {
  return `${label}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}@example.test`;
}

/** The session cookie a response sets, as `name=value`; undefined when it sets none. */
export function sessionCookieOf(response: Response): string | undefined {
  const line = response.headers.getSetCookie().find((cookie) => /^(__Host-)?vrs_session=/.test(cookie));
  return line?.split(';')[0];
}

export async function postJson(baseUrl: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

export async function signIn(baseUrl: string, email: string, password: string): Promise<WebSession> {
  const response = await postJson(baseUrl, '/signin', { email, password });
  const body = (await response.json()) as { accountId: string; sessionId: string; csrfToken: string };
  const cookie = sessionCookieOf(response);
  if (response.status !== 200 || !cookie) throw new Error(`sign-in answered ${response.status}: ${JSON.stringify(body)}`);
  return { accountId: body.accountId, sessionId: body.sessionId, cookie, csrfToken: body.csrfToken };
}

/** Signs up, follows the verification link from the mail the SMTP inbox received, and signs in. */
export async function signUpVerified(
  baseUrl: string,
  inboxUrl: string,
  options: { email?: string; password?: string } = {},
): Promise<WebSession & { email: string; password: string }> {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? `pw-${randomBytes(8).toString('hex')}`;
  const signedUp = await postJson(baseUrl, '/signup', { email, password });
  if (signedUp.status !== 200) throw new Error(`sign-up answered ${signedUp.status}: ${await signedUp.text()}`);
  const mail = await waitForMail(inboxUrl, email, { subject: /verify/i });
  const verified = await fetch(linkIn(mail, `${baseUrl}/verify-email`), { headers: { accept: 'application/json' } });
  if (verified.status !== 200) throw new Error(`verification answered ${verified.status}: ${await verified.text()}`);
  return { ...(await signIn(baseUrl, email, password)), email, password };
}
