import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, type ApiResponse } from '@vrs/testing/api-client';
import { startGatewayProcess, type RunningProcess } from '@vrs/testing/processes';
import { billingClient, pollToken, requestDeviceCode, signedInAccount, sleep, type DeviceCode } from './device-flow-support';

const stackEnv = inject('stackEnv');
const logDir = inject('logDir');
const billing = billingClient(stackEnv);

function expectRefusal(response: ApiResponse, status: number, code: string, rfcError?: string) {
  expect(response.status, response.text).toBe(status);
  expect(response.body.error).toMatchObject({ code, message: expect.any(String), requestId: expect.any(String) });
  if (rfcError) expect(response.body.error.details.error).toBe(rfcError);
}

/** The web approval page driven as a form would be, asking for JSON answers. */
function devicePage(gatewayUrl: string, account: { cookie: string; csrfToken: string }) {
  const page = apiClient(gatewayUrl, { cookie: account.cookie, accept: 'application/json' });
  return {
    show: (userCode: string) => page('GET', `/device?user_code=${encodeURIComponent(userCode)}`),
    decide: (userCode: string, decision: 'approve' | 'deny', scopes: string[] = []) => {
      const form = new URLSearchParams({ _csrf: account.csrfToken, user_code: userCode, decision });
      for (const scope of scopes) form.append('scope', scope);
      return page('POST', '/device', { rawBody: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    },
  };
}

// The stack's gateway (5 s polling interval), and one of its own beside it, sharing the services,
// whose codes and CLI sessions expire in 2 s, with tight limits (its own window length, so its counts are its own).
const gatewayUrl = inject('gatewayUrl');
let shortLived: RunningProcess;
beforeAll(async () => {
  shortLived = await startGatewayProcess(
    'gateway-device-short',
    {
      ...stackEnv,
      DEVICE_POLL_INTERVAL_SECONDS: '1',
      DEVICE_CODE_TTL_SECONDS: '2',
      CLI_SESSION_TTL_MS: '2000',
      DEVICE_CODE_RATE_LIMIT_PER_IP: '3',
      DEVICE_USER_CODE_ATTEMPTS: '3',
      DEVICE_RATE_LIMIT_WINDOW_MS: '3600000',
    },
    logDir,
  );
});
afterAll(async () => {
  await shortLived?.stop();
});

describe('RFC 8628 device authorization over HTTP', () => {
  it('code → pending → slow_down → approved on /device → token → scopes enforced → revoked → 401', async () => {
    const created = await requestDeviceCode(gatewayUrl, { scopes: ['data:read', 'data:write'], clientName: 'e2e CLI' });
    expect(created.status, created.text).toBe(200);
    const code = created.body as DeviceCode;
    expect(code.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(code).toMatchObject({ verification_uri: `${gatewayUrl}/device`, expires_in: 900, interval: 5 });
    expect(code.verification_uri_complete).toBe(`${gatewayUrl}/device?user_code=${code.user_code}`);
    expect(created.headers.get('cache-control')).toBe('no-store');

    const pending = await pollToken(gatewayUrl, code.device_code);
    expectRefusal(pending, 400, 'AUTHORIZATION_PENDING', 'authorization_pending');
    const tooFast = await pollToken(gatewayUrl, code.device_code);
    expectRefusal(tooFast, 400, 'SLOW_DOWN', 'slow_down');
    expect(tooFast.body.error.details.interval).toBe(10);

    // The page: not signed in → to sign-in and back to this code; signed in → the client and its scopes.
    const anonymous = await fetch(code.verification_uri_complete, { redirect: 'manual' });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe(`/signin?next=${encodeURIComponent(`/device?user_code=${code.user_code}`)}`);
    const owner = await signedInAccount(billing);
    const html = await fetch(code.verification_uri_complete, { headers: { cookie: owner.cookie } });
    expect(html.status).toBe(200);
    const text = await html.text();
    expect(text).toContain('e2e CLI');
    expect(text).toContain(code.user_code);
    expect(text).toMatch(/name="scope" value="data:write" checked/);
    const page = devicePage(gatewayUrl, owner);
    expect((await page.show(code.user_code.toLowerCase())).body).toMatchObject({
      clientName: 'e2e CLI',
      scopes: ['data:read', 'data:write'],
    });

    // The form is CSRF-protected: without the session's token nothing is decided.
    const forged = await apiClient(gatewayUrl, { cookie: owner.cookie, accept: 'application/json' })('POST', '/device', {
      rawBody: new URLSearchParams({ user_code: code.user_code, decision: 'approve', scope: 'data:read' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectRefusal(forged, 403, 'CSRF_TOKEN_MISSING');
    // The user approves less than was asked.
    const approved = await page.decide(code.user_code, 'approve', ['data:read']);
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', scopes: ['data:read'] });

    await sleep(10_000);
    const token = await pollToken(gatewayUrl, code.device_code);
    expect(token.status, token.text).toBe(200);
    expect(token.body).toEqual({
      access_token: expect.stringMatching(/^atc_/),
      token_type: 'Bearer',
      expires_in: 7 * 86_400,
      scope: 'data:read',
    });
    // Exchanged once: the same device code again is invalid_grant.
    expectRefusal(await pollToken(gatewayUrl, code.device_code), 400, 'INVALID_DEVICE_CODE', 'invalid_grant');

    const cli = apiClient(gatewayUrl, { authorization: `Bearer ${token.body.access_token}` });
    expect((await cli('GET', '/v1/projects')).status).toBe(200);
    const write = await cli('POST', '/v1/projects', { json: { name: 'not approved' } });
    expectRefusal(write, 403, 'INSUFFICIENT_SCOPE');
    expect(write.body.error.details.missing).toEqual(['data:write']);

    // The CLI session is listed with the account's sessions, labelled with the client, and revocable.
    const sessions = await billing.sessions.list.query({ accountId: owner.accountId, limit: 10 });
    const listed = sessions.data.find((session) => session.kind === 'cli');
    expect(listed).toMatchObject({ label: 'e2e CLI', scopes: ['data:read'] });
    await billing.sessions.revoke.mutate({ accountId: owner.accountId, sessionId: listed!.id });
    expectRefusal(await cli('GET', '/v1/projects'), 401, 'SESSION_INVALID');
  });

  it('deny → access_denied; the user code is then spent', async () => {
    const { body: code } = await requestDeviceCode(gatewayUrl, { clientName: 'denied CLI' });
    const owner = await signedInAccount(billing);
    const page = devicePage(gatewayUrl, owner);
    expect((await page.show(code.user_code)).body).toMatchObject({ scopes: ['data:read'] });
    expect((await page.decide(code.user_code, 'deny')).body).toMatchObject({ status: 'denied' });
    expectRefusal(await pollToken(gatewayUrl, code.device_code), 400, 'ACCESS_DENIED', 'access_denied');
    expectRefusal(await page.show(code.user_code), 409, 'USER_CODE_USED');
  });

  it('precise refusals: unknown codes, nothing ticked, a wrong grant type, a malformed body', async () => {
    const owner = await signedInAccount(billing);
    const page = devicePage(gatewayUrl, owner);
    expectRefusal(await page.show('BCDF-GHJK'), 404, 'USER_CODE_INVALID');
    const htmlRefusal = await fetch(`${gatewayUrl}/device?user_code=nonsense`, { headers: { cookie: owner.cookie } });
    expect(htmlRefusal.status).toBe(404);
    expect(await htmlRefusal.text()).toContain('data-code="USER_CODE_INVALID"');

    const { body: code } = await requestDeviceCode(gatewayUrl, { scopes: ['data:read'] });
    expectRefusal(await page.decide(code.user_code, 'approve', []), 422, 'SCOPES_NOT_CHOSEN');
    expectRefusal(await page.decide(code.user_code, 'approve', ['data:write']), 422, 'SCOPE_NOT_REQUESTED');

    const api = apiClient(gatewayUrl);
    const wrongGrant = await api('POST', '/v1/auth/device/token', { json: { device_code: code.device_code, grant_type: 'password' } });
    expectRefusal(wrongGrant, 400, 'UNSUPPORTED_GRANT_TYPE', 'unsupported_grant_type');
    expectRefusal(await api('POST', '/v1/auth/device/token', { json: {} }), 422, 'VALIDATION_FAILED');
    expectRefusal(
      await api('POST', '/v1/auth/device/token', { json: { device_code: 'made-up' } }),
      400,
      'INVALID_DEVICE_CODE',
      'invalid_grant',
    );
    expectRefusal(await api('POST', '/v1/auth/device/code', { json: { scopes: ['everything'] } }), 422, 'VALIDATION_FAILED');
  });
});

describe('expiry and limits (codes and CLI sessions of 2 s)', () => {
  it('an expired device code is expired_token, and its user code USER_CODE_EXPIRED', async () => {
    const { body: code } = await requestDeviceCode(shortLived.url, {});
    expect(code.expires_in).toBe(2);
    await sleep(2_100);
    expectRefusal(await pollToken(shortLived.url, code.device_code), 400, 'EXPIRED_TOKEN', 'expired_token');
    const owner = await signedInAccount(billing);
    expectRefusal(await devicePage(shortLived.url, owner).show(code.user_code), 410, 'USER_CODE_EXPIRED');
  });

  it('an expired CLI session gets 401 SESSION_INVALID', async () => {
    const { body: code } = await requestDeviceCode(shortLived.url, {});
    const owner = await signedInAccount(billing);
    expect((await devicePage(shortLived.url, owner).decide(code.user_code, 'approve', ['data:read'])).status).toBe(200);
    const token = await pollToken(shortLived.url, code.device_code);
    expect(token.body).toMatchObject({ expires_in: 2, scope: 'data:read' });
    const cli = apiClient(shortLived.url, { authorization: `Bearer ${token.body.access_token}` });
    expect((await cli('GET', '/v1/projects')).status).toBe(200);
    await sleep(2_100);
    expectRefusal(await cli('GET', '/v1/projects'), 401, 'SESSION_INVALID');
  });

  it('device codes are rate-limited per IP', async () => {
    const answers: ApiResponse[] = [];
    for (let i = 0; i < 4; i++) answers.push(await requestDeviceCode(shortLived.url, {}));
    const limited = answers.find((answer) => answer.status === 429);
    expect(limited, 'a 429 among the answers').toBeDefined();
    expectRefusal(limited!, 429, 'DEVICE_CODE_RATE_LIMITED');
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  // Last on this gateway: its IP stays limited for the window.
  it('guessing user codes is rate-limited per account and IP', async () => {
    const owner = await signedInAccount(billing);
    const page = devicePage(shortLived.url, owner);
    for (const guess of ['BCDF-GHJK', 'BCDF-GHJL', 'BCDF-GHJM']) expectRefusal(await page.show(guess), 404, 'USER_CODE_INVALID');
    const limited = await page.show('BCDF-GHJN');
    expectRefusal(limited, 429, 'USER_CODE_RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
