import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { allScopes } from '@vrs/contracts';
import { startGatewayProcess, type RunningProcess } from '@vrs/testing/processes';
import { linkIn, mailTo, waitForMail } from '@vrs/testing/smtp-inbox';
import { postJson, sessionCookieOf, signIn, signUpVerified, uniqueEmail, type WebSession } from '@vrs/testing/web-session';

const gatewayUrl = inject('gatewayUrl');
const inboxUrl = inject('mailInboxUrl');
const stackEnv = inject('stackEnv');
const logDir = inject('logDir');

/** A call with the session cookie (and, when given, a CSRF token and Origin), answered in JSON. */
async function withCookie(
  session: Pick<WebSession, 'cookie'>,
  method: string,
  path: string,
  options: { csrf?: string; origin?: string; json?: unknown } = {},
) {
  const headers: Record<string, string> = { accept: 'application/json', cookie: session.cookie };
  if (options.csrf !== undefined) headers['x-csrf-token'] = options.csrf;
  if (options.origin !== undefined) headers.origin = options.origin;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${gatewayUrl}${path}`, {
    method,
    headers,
    ...(options.json !== undefined ? { body: JSON.stringify(options.json) } : {}),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

function withoutRequestId(body: { error: { code: string; requestId: string } }) {
  const { requestId: _requestId, ...error } = body.error;
  return error;
}

describe('email sign-up, verification and sign-in over real SMTP', () => {
  it('signs up, receives the link by mail, verifies once, signs in; the cookie works on /v1 with CSRF on writes', async () => {
    const email = uniqueEmail('flow');
    const password = 'a long enough password';
    const signedUp = await postJson(gatewayUrl, '/signup', { email: email.toUpperCase(), password, name: 'Flow' });
    expect(signedUp.status).toBe(200);
    expect(sessionCookieOf(signedUp)).toBeUndefined();

    const mail = await waitForMail(inboxUrl, email, { subject: /verify/i });
    const link = linkIn(mail, `${gatewayUrl}/verify-email?token=`);
    // Not verified yet: the right password is refused with its own code (and a new link is sent).
    const early = await postJson(gatewayUrl, '/signin', { email, password });
    expect(early.status).toBe(403);
    expect(((await early.json()) as { error: { code: string } }).error.code).toBe('EMAIL_NOT_VERIFIED');
    const resent = await waitForMail(inboxUrl, email, { subject: /verify/i, count: 2 });
    // The first link was replaced by the second.
    const replaced = await fetch(link, { headers: { accept: 'application/json' } });
    expect(replaced.status).toBe(400);
    expect(((await replaced.json()) as { error: { code: string } }).error.code).toBe('LINK_INVALID');

    const current = linkIn(resent, `${gatewayUrl}/verify-email?token=`);
    const verified = await fetch(current, { headers: { accept: 'application/json' } });
    expect(verified.status).toBe(200);
    // A browser following the link lands on the sign-in page.
    const again = await fetch(current, { redirect: 'manual' });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('data-code="LINK_INVALID"');

    const session = await signIn(gatewayUrl, email, password);
    expect(session.cookie).toMatch(/^vrs_session=ats_[\w-]{43}$/);

    const who = await withCookie(session, 'GET', '/v1/auth/session');
    expect(who.status).toBe(200);
    expect(who.body).toMatchObject({
      account: { id: session.accountId, email, name: 'Flow' },
      credential: { kind: 'session_cookie', id: session.sessionId },
      csrfToken: session.csrfToken,
    });
    expect(who.body.scopes).toEqual(expect.arrayContaining(['data:read', 'data:write', 'account:access', 'account:manage']));

    // Writes with the cookie need the session's CSRF token, and our origin when an Origin is sent.
    const rename = { json: { name: 'Renamed' } };
    expect((await withCookie(session, 'PATCH', '/v1/account', rename)).body.error.code).toBe('CSRF_TOKEN_MISSING');
    const wrong = await withCookie(session, 'PATCH', '/v1/account', { ...rename, csrf: `${session.csrfToken.slice(0, -1)}x` });
    expect([wrong.status, wrong.body.error.code]).toEqual([403, 'CSRF_TOKEN_INVALID']);
    const foreign = await withCookie(session, 'PATCH', '/v1/account', {
      ...rename,
      csrf: session.csrfToken,
      origin: 'https://evil.example',
    });
    expect([foreign.status, foreign.body.error.code]).toEqual([403, 'CSRF_ORIGIN_MISMATCH']);
    expect((await withCookie(session, 'GET', '/v1/account')).body.name).toBe('Flow');

    const renamed = await withCookie(session, 'PATCH', '/v1/account', { ...rename, csrf: session.csrfToken, origin: gatewayUrl });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: session.accountId, email, name: 'Renamed', verified: true, plan: 'free' });

    const sessions = await withCookie(session, 'GET', '/v1/auth/sessions');
    expect(sessions.status).toBe(200);
    expect(sessions.body.data).toEqual([
      expect.objectContaining({ id: session.sessionId, kind: 'session_cookie', current: true, scopes: [...allScopes] }),
    ]);

    // Sign-out revokes the session server-side: the same cookie no longer authenticates.
    const signedOut = await fetch(`${gatewayUrl}/signout`, {
      method: 'POST',
      headers: { accept: 'application/json', cookie: session.cookie, 'x-csrf-token': session.csrfToken },
    });
    expect(signedOut.status).toBe(200);
    expect(signedOut.headers.getSetCookie().join()).toMatch(/vrs_session=;.*Max-Age=0/);
    const after = await withCookie(session, 'GET', '/v1/auth/session');
    expect([after.status, after.body.error.code]).toEqual([401, 'SESSION_INVALID']);
  });

  it('the cookie is HttpOnly, SameSite=Lax, Path=/ (and not Secure outside production)', async () => {
    const { email, password } = await signUpVerified(gatewayUrl, inboxUrl);
    const response = await postJson(gatewayUrl, '/signin', { email, password });
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('vrs_session='));
    expect(cookie).toMatch(/; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
  });

  it('a wrong password and an unknown address get the same answer', async () => {
    const { email } = await signUpVerified(gatewayUrl, inboxUrl);
    const wrongPassword = await postJson(gatewayUrl, '/signin', { email, password: 'not the password at all' });
    const unknown = await postJson(gatewayUrl, '/signin', { email: uniqueEmail('nobody'), password: 'not the password at all' });
    expect(wrongPassword.status).toBe(401);
    expect(unknown.status).toBe(401);
    const [a, b] = [
      (await wrongPassword.json()) as { error: { code: string; requestId: string } },
      (await unknown.json()) as { error: { code: string; requestId: string } },
    ];
    expect(withoutRequestId(a)).toEqual(withoutRequestId(b));
    expect(withoutRequestId(a).code).toBe('INVALID_CREDENTIALS');
  });

  it('a browser form that fails is the page again with its status and code', async () => {
    const response = await fetch(`${gatewayUrl}/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      body: new URLSearchParams({ email: uniqueEmail('form'), password: 'whatever password' }).toString(),
      redirect: 'manual',
    });
    expect(response.status).toBe(401);
    const page = await response.text();
    expect(page).toContain('data-code="INVALID_CREDENTIALS"');
    expect(page).toContain('<form method="post" action="/signin">');
  });

  it('signing up with a taken address answers the same and mails the owner instead', async () => {
    const { email } = await signUpVerified(gatewayUrl, inboxUrl);
    const fresh = await postJson(gatewayUrl, '/signup', { email: uniqueEmail('fresh'), password: 'another long password' });
    const taken = await postJson(gatewayUrl, '/signup', { email, password: 'another long password' });
    expect(taken.status).toBe(fresh.status);
    expect(Object.keys((await taken.json()) as object)).toEqual(Object.keys((await fresh.json()) as object));
    await waitForMail(inboxUrl, email, { subject: /already have an account/i });
  });

  it('refuses bad input with precise codes', async () => {
    const badEmail = await postJson(gatewayUrl, '/signup', { email: 'not-an-address', password: 'long enough password' });
    expect([badEmail.status, ((await badEmail.json()) as { error: { code: string } }).error.code]).toEqual([422, 'EMAIL_INVALID']);
    const weak = await postJson(gatewayUrl, '/signup', { email: uniqueEmail('weak'), password: 'short' });
    expect([weak.status, ((await weak.json()) as { error: { code: string } }).error.code]).toEqual([422, 'PASSWORD_TOO_WEAK']);
    const garbage = await fetch(`${gatewayUrl}/verify-email?token=made-up`, { headers: { accept: 'application/json' } });
    expect([garbage.status, ((await garbage.json()) as { error: { code: string } }).error.code]).toEqual([400, 'LINK_INVALID']);
    const cli = await fetch(`${gatewayUrl}/v1/auth/session`, { headers: { authorization: `Bearer atc_${'x'.repeat(43)}` } });
    expect([cli.status, ((await cli.json()) as { error: { code: string } }).error.code]).toEqual([401, 'SESSION_INVALID']);
  });

  it('limits sign-in attempts per address: 429 SIGNIN_RATE_LIMITED with Retry-After, even for the right password', async () => {
    const { email, password } = await signUpVerified(gatewayUrl, inboxUrl);
    // The stack allows 5 attempts per address per window; signUpVerified used one.
    for (let attempt = 0; attempt < 4; attempt++) {
      expect((await postJson(gatewayUrl, '/signin', { email, password: 'wrong password guess' })).status).toBe(401);
    }
    const limited = await postJson(gatewayUrl, '/signin', { email, password });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe('SIGNIN_RATE_LIMITED');
    // Another address is not affected.
    const other = await signUpVerified(gatewayUrl, inboxUrl);
    expect(other.cookie).toMatch(/^vrs_session=/);
  });

  it('a password reset by emailed link signs out every session; the link works once', async () => {
    const account = await signUpVerified(gatewayUrl, inboxUrl);
    const second = await signIn(gatewayUrl, account.email, account.password);
    const asked = await postJson(gatewayUrl, '/forgot-password', { email: account.email });
    expect(asked.status).toBe(200);
    // An unknown address gets the same answer and no mail.
    const unknownEmail = uniqueEmail('ghost');
    const unknown = await postJson(gatewayUrl, '/forgot-password', { email: unknownEmail });
    expect(unknown.status).toBe(200);
    expect(Object.keys((await unknown.json()) as object)).toEqual(Object.keys((await asked.json()) as object));

    const mail = await waitForMail(inboxUrl, account.email, { subject: /new password/i });
    const link = linkIn(mail, `${gatewayUrl}/reset-password?token=`);
    const form = await fetch(link);
    expect(form.status).toBe(200);
    expect(await form.text()).toMatch(/<input type="hidden" name="token" value="[\w-]+" \/>/);
    const token = new URL(link).searchParams.get('token')!;

    const weak = await postJson(gatewayUrl, '/reset-password', { token, password: 'short' });
    expect(weak.status).toBe(422);
    const newPassword = 'a brand new password';
    expect((await postJson(gatewayUrl, '/reset-password', { token, password: newPassword })).status).toBe(200);
    const reused = await postJson(gatewayUrl, '/reset-password', { token, password: 'yet another password' });
    expect([reused.status, ((await reused.json()) as { error: { code: string } }).error.code]).toEqual([400, 'LINK_INVALID']);

    for (const ended of [account, second]) expect((await withCookie(ended, 'GET', '/v1/auth/session')).status).toBe(401);
    expect((await postJson(gatewayUrl, '/signin', { email: account.email, password: account.password })).status).toBe(401);
    expect((await signIn(gatewayUrl, account.email, newPassword)).accountId).toBe(account.accountId);
    expect(await mailTo(inboxUrl, unknownEmail)).toEqual([]);
  });

  it('a session revoked through the API stops working; revoking again is 404', async () => {
    const first = await signUpVerified(gatewayUrl, inboxUrl);
    const second = await signIn(gatewayUrl, first.email, first.password);
    const listed = await withCookie(first, 'GET', '/v1/auth/sessions');
    expect(listed.body.data.map((session: { id: string; current: boolean }) => [session.id, session.current])).toEqual([
      [second.sessionId, false],
      [first.sessionId, true],
    ]);
    const revoked = await withCookie(first, 'DELETE', `/v1/auth/sessions/${second.sessionId}`, { csrf: first.csrfToken });
    expect(revoked).toMatchObject({ status: 200, body: { id: second.sessionId, deleted: true } });
    expect((await withCookie(second, 'GET', '/v1/account')).status).toBe(401);
    const again = await withCookie(first, 'DELETE', `/v1/auth/sessions/${second.sessionId}`, { csrf: first.csrfToken });
    expect([again.status, again.body.error.code]).toEqual([404, 'SESSION_NOT_FOUND']);
    // Another account's session is 404 too, and stays signed in.
    const stranger = await signUpVerified(gatewayUrl, inboxUrl);
    const probe = await withCookie(first, 'DELETE', `/v1/auth/sessions/${stranger.sessionId}`, { csrf: first.csrfToken });
    expect(probe.status).toBe(404);
    expect((await withCookie(stranger, 'GET', '/v1/account')).status).toBe(200);
  });

  it('signed-in pages send a browser without a session to /signin', async () => {
    const response = await fetch(`${gatewayUrl}/keys`, { redirect: 'manual' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/signin?next=%2Fkeys');
  });
});

describe('a production gateway: __Host- cookie, rotation with a grace, no dev mail', () => {
  const graceMs = 2_000;
  let production: RunningProcess;
  beforeAll(async () => {
    production = await startGatewayProcess(
      'gateway-production',
      // Every request finds the token due for rotation.
      {
        ...stackEnv,
        NODE_ENV: 'production',
        DEMO_MODE: 'false',
        PUBLIC_BASE_URL: 'https://vrs.example',
        WEB_SESSION_ROTATE_AFTER_MS: '0',
        SESSION_ROTATION_GRACE_MS: String(graceMs),
      },
      logDir,
    );
  });
  afterAll(() => production?.stop());

  async function get(path: string, cookie: string) {
    const response = await fetch(`${production.url}${path}`, { headers: { accept: 'application/json', cookie } });
    return {
      status: response.status,
      cookie: sessionCookieOf(response),
      body: (await response.json()) as { csrfToken?: string; credential: { id: string }; error: { code: string } },
    };
  }

  it('rotates the token on use; the old one works through the grace only; the CSRF token stays', async () => {
    const { email, password } = await signUpVerified(gatewayUrl, inboxUrl);
    const signedIn = await postJson(production.url, '/signin', { email, password });
    expect(signedIn.status).toBe(200);
    const line = signedIn.headers.getSetCookie().find((cookie) => cookie.startsWith('__Host-vrs_session='));
    expect(line).toMatch(/^__Host-vrs_session=ats_[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Secure; Max-Age=\d+$/);
    const first = sessionCookieOf(signedIn)!;
    const { csrfToken } = (await signedIn.json()) as { csrfToken: string };

    const rotated = await get('/v1/auth/session', first);
    expect(rotated.status).toBe(200);
    expect(rotated.cookie).toMatch(/^__Host-vrs_session=ats_/);
    expect(rotated.cookie).not.toBe(first);
    expect(rotated.body.csrfToken).toBe(csrfToken);

    // A request sent in parallel with the old token still succeeds, and does not rotate again.
    const parallel = await get('/v1/auth/session', first);
    expect(parallel.status).toBe(200);
    expect(parallel.cookie).toBeUndefined();

    const next = await get('/v1/auth/session', rotated.cookie!);
    expect(next.status).toBe(200);
    expect(next.body.credential.id).toBe(rotated.body.credential.id);

    await new Promise((resolve) => setTimeout(resolve, graceMs + 200));
    const stale = await get('/v1/auth/session', first);
    expect([stale.status, stale.body.error.code]).toEqual([401, 'SESSION_INVALID']);
    expect((await get('/v1/auth/session', next.cookie ?? rotated.cookie!)).status).toBe(200);
  });

  it('has no /_dev/mail', async () => {
    expect((await fetch(`${production.url}/_dev/mail`)).status).toBe(404);
  });
});
