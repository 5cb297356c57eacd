import { request as httpRequest } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deleteNamespace } from '@vrs/bus';
import { launchBrowser } from '@vrs/testing/browser';
import { apiClient } from '@vrs/testing/api-client';
import { listenOnFreePort } from '@vrs/testing/http-server';
import { uniqueNamespace } from '@vrs/testing/nats';
import { startGatewayProcess, startServiceProcess, type RunningProcess } from '@vrs/testing/processes';
import { linkIn, waitForMail } from '@vrs/testing/smtp-inbox';
import { postJson, signIn, signUpVerified } from '@vrs/testing/web-session';
import { billingClient, requestDeviceCode, signedInAccount } from './device-flow-support';

/*
 * The defences of issue 43 (docs/security.md), each against the real stack: the stack's gateway
 * (no PUBLIC_BASE_URL, auth caches off) and, beside it, a gateway of its own whose caches keep
 * credentials for 10 minutes, whose public address is https, and whose monitoring service refuses
 * private webhook targets as production does (namespace and data dir of their own).
 */
const stackEnv = inject('stackEnv');
const logDir = inject('logDir');
const gatewayUrl = inject('gatewayUrl');
const inboxUrl = inject('mailInboxUrl');
const billing = billingClient(stackEnv);

let dataDir: string;
let env: Record<string, string>;
let monitoring: RunningProcess;
let gateway: RunningProcess;

beforeAll(async () => {
  dataDir = await mkdtemp(join(logDir, 'security-'));
  env = { ...stackEnv, NATS_NAMESPACE: uniqueNamespace('security'), DATA_DIR: dataDir };
  monitoring = await startServiceProcess('monitoring', { ...env, MONITORING_TICK_MS: '0', WEBHOOKS_ALLOW_PRIVATE: 'false' }, logDir);
  gateway = await startGatewayProcess(
    'gateway-security',
    {
      ...env,
      MONITORING_SERVICE_URL: monitoring.url,
      AUTH_CACHE_TTL_MS: '600000',
      PUBLIC_BASE_URL: 'https://vrs.example',
      DEVICE_USER_CODE_ATTEMPTS: '10',
    },
    logDir,
  );
});

afterAll(async () => {
  await Promise.all([gateway, monitoring].map((running) => running?.stop()));
  await deleteNamespace(env.NATS_URL!, env.NATS_NAMESPACE!).catch(() => undefined);
  await rm(dataDir, { recursive: true, force: true });
});

/** A POST whose Host header is the caller's choice (fetch will not send another host's name). */
function postWithHost(url: string, host: string, json: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify(json);
    const req = httpRequest(url, {
      method: 'POST',
      headers: { host, 'content-type': 'application/json', accept: 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('webhooks cannot reach inside (SSRF)', () => {
  it('an IPv4-mapped loopback target is refused with 422 WEBHOOK_URL_INVALID, and the listener there hears nothing', async () => {
    let received = 0;
    const listener = await listenOnFreePort((_req, res) => {
      received += 1;
      res.end();
    });
    try {
      const port = new URL(listener.url).port;
      const api = apiClient(gateway.url, { 'x-demo-user': `ssrf-${Date.now()}` });
      for (const host of ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[0:0:0:0:0:ffff:127.0.0.1]', '[::127.0.0.1]', '[64:ff9b::127.0.0.1]']) {
        const response = await api('POST', '/v1/webhooks', { json: { url: `http://${host}:${port}/hook` } });
        expect(response.status, `${host}: ${response.text}`).toBe(422);
        expect(response.body.error.code).toBe('WEBHOOK_URL_INVALID');
      }
      for (const url of ['http://[::ffff:169.254.169.254]/latest', 'http://198.18.0.1/h', 'http://[::ffff:10.0.0.1]/h']) {
        expect((await api('POST', '/v1/webhooks', { json: { url } })).status, url).toBe(422);
      }
      expect((await api('GET', '/v1/webhooks')).body.data).toEqual([]);
      expect(received).toBe(0);
    } finally {
      await listener.close();
    }
  });
});

describe('mailed links come from configuration, not the Host header', () => {
  it('POST /forgot-password with Host: evil.example mails a link to this service', async () => {
    const { email } = await signUpVerified(gatewayUrl, inboxUrl);
    expect(await postWithHost(`${gatewayUrl}/forgot-password`, 'evil.example', { email })).toBe(200);
    const mail = await waitForMail(inboxUrl, email, { subject: /new password/i });
    expect(mail.text).not.toContain('evil.example');
    expect(linkIn(mail, `http://127.0.0.1:${new URL(gatewayUrl).port}/reset-password?token=`)).toBeTruthy();
  });
});

describe('forms without a session refuse cross-site posts (login CSRF)', () => {
  const forms: [path: string, body: Record<string, unknown>][] = [
    ['/signin', { email: 'someone@example.test', password: 'a password of the attacker' }],
    ['/signup', { email: 'someone-else@example.test', password: 'a password of the attacker' }],
    ['/forgot-password', { email: 'someone@example.test' }],
    ['/reset-password', { token: 'x', password: 'a new password 123' }],
  ];

  it('a cross-site Origin or Sec-Fetch-Site: cross-site is 403 CSRF_ORIGIN_REFUSED in the error envelope', async () => {
    for (const [path, body] of forms) {
      const crossSite: Record<string, string>[] = [
        { origin: 'https://evil.example' },
        { 'sec-fetch-site': 'cross-site' },
        { origin: 'null' },
      ];
      for (const headers of crossSite) {
        const response = await postJson(gatewayUrl, path, body, headers);
        const answer = (await response.json()) as { error: { code: string; requestId: string } };
        expect(response.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(answer.error).toMatchObject({ code: 'CSRF_ORIGIN_REFUSED', requestId: expect.any(String) });
      }
    }
  });

  it('our own pages (same origin) and scripts (no Origin) still sign in', async () => {
    const { email, password } = await signUpVerified(gatewayUrl, inboxUrl);
    const sameOrigin = await postJson(gatewayUrl, '/signin', { email, password }, { origin: gatewayUrl, 'sec-fetch-site': 'same-origin' });
    expect(sameOrigin.status).toBe(200);
    expect((await signIn(gatewayUrl, email, password)).accountId).toEqual(expect.any(String));
  });
});

describe('security headers', () => {
  it('pages, the API reference and JSON answers carry CSP frame-ancestors none, nosniff and strict-origin; HSTS only for https', async () => {
    for (const path of ['/signin', '/device', '/v1/docs', '/v1/openapi.json', '/v1/projects', '/nowhere']) {
      const response = await fetch(`${gatewayUrl}${path}`, { redirect: 'manual' });
      await response.body?.cancel();
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('referrer-policy'), path).toBe('strict-origin');
      expect(response.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
      expect(response.headers.get('strict-transport-security'), path).toBeNull();
    }
    const https = await fetch(`${gateway.url}/signin`);
    await https.body?.cancel();
    expect(https.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
  });

  it('no CSP violation in a real browser on the sign-in page, /device and the Swagger UI, which render', async () => {
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext();
      const { cookie } = await signedInAccount(billing);
      const [name, value] = cookie.split('=') as [string, string];
      await context.addCookies([{ name, value, url: gatewayUrl }]);
      const page = await context.newPage();
      const console: string[] = [];
      page.on('console', (message) => console.push(`${message.type()}: ${message.text()}`));
      page.on('pageerror', (error) => console.push(`pageerror: ${error.message}`));
      // Besides chromium's own console line, every violation the page sees (an init script is not subject to CSP).
      await page.addInitScript(
        "document.addEventListener('securitypolicyviolation', (event) => console.error('Content Security Policy violation: ' + event.violatedDirective + ' ' + event.blockedURI))",
      );

      await page.goto(`${gatewayUrl}/signin`);
      // The stylesheet (a file now, not inline) applies.
      expect(await page.evaluate('getComputedStyle(document.body).maxWidth')).not.toBe('none');
      // Our own form posts from the browser pass both CSRF checks (Origin and Sec-Fetch-Site are ours).
      await page.getByLabel('Email address').fill(`nobody-${Date.now()}@example.test`);
      await page.getByLabel('Password').fill('not the password 123');
      await page.getByRole('button', { name: 'Sign in' }).click();
      expect(await page.locator('[data-code]').getAttribute('data-code')).toBe('INVALID_CREDENTIALS');
      await page.goto(`${gatewayUrl}/device`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBeTruthy();
      await page.goto(`${gatewayUrl}/v1/docs`);
      await page.locator('.swagger-ui .info .title').waitFor({ timeout: 60_000 });
      await page.locator('.opblock').first().waitFor({ timeout: 60_000 });
      const violations = () => console.filter((line) => /Content Security Policy|Refused to/i.test(line));
      expect(violations()).toEqual([]);
      // The policy is enforced and a violation would show: an inline style added now is refused.
      await page.evaluate("document.head.append(Object.assign(document.createElement('style'), { textContent: 'body{color:red}' }))");
      await expect.poll(() => violations().length, { timeout: 10_000 }).toBeGreaterThan(0);
      await context.close();
    } finally {
      await browser.close();
    }
  });
});

describe('revocation takes effect at once on the gateway that revoked', () => {
  it('a deleted API key is 401 on its next request, however long the cache would keep it', async () => {
    const owner = await signedInAccount(billing);
    const session = apiClient(gateway.url, { cookie: owner.cookie, 'x-csrf-token': owner.csrfToken });
    const created = await session('POST', '/v1/api-keys', { json: { name: 'revoked at once', scopes: ['data:read', 'account:manage'] } });
    expect(created.status, created.text).toBe(200);
    const key = apiClient(gateway.url, { authorization: `Bearer ${created.body.key}` });
    expect((await key('GET', '/v1/auth/session')).status).toBe(200);
    expect((await key('DELETE', `/v1/api-keys/${created.body.id}`)).status).toBe(200);
    const after = await key('GET', '/v1/auth/session');
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('INVALID_API_KEY');
  });

  it('a password reset signs out the other sessions at once, and revokes the API keys when asked', async () => {
    const { email, password } = await signUpVerified(gatewayUrl, inboxUrl);
    const other = await signIn(gateway.url, email, password);
    const asOther = apiClient(gateway.url, { cookie: other.cookie, 'x-csrf-token': other.csrfToken });
    const keyOf = async (name: string) => {
      const created = await asOther('POST', '/v1/api-keys', { json: { name, scopes: ['data:read'] } });
      expect(created.status, created.text).toBe(200);
      return apiClient(gateway.url, { authorization: `Bearer ${created.body.key}` });
    };
    const kept = await keyOf('kept');
    expect((await kept('GET', '/v1/auth/session')).status).toBe(200);

    const reset = async (count: number, revokeApiKeys?: boolean) => {
      expect((await postJson(gateway.url, '/forgot-password', { email })).status).toBe(200);
      const mail = await waitForMail(inboxUrl, email, { subject: /new password/i, count });
      const token = new URL(linkIn(mail, 'https://vrs.example/reset-password?token=')).searchParams.get('token');
      const answer = await postJson(gateway.url, '/reset-password', { token, password: `${password}-new${count}`, revokeApiKeys });
      expect(answer.status, await answer.clone().text()).toBe(200);
      return answer.json();
    };
    expect((await asOther('GET', '/v1/auth/session')).status).toBe(200);
    const first = await reset(1);
    const signedOut = await asOther('GET', '/v1/auth/session');
    expect(signedOut.status).toBe(401);
    expect(signedOut.body.error.code).toBe('SESSION_INVALID');
    expect(first).toMatchObject({ passwordReset: true, apiKeysRevoked: false });
    // API keys survive a reset unless it asks to revoke them.
    expect((await kept('GET', '/v1/auth/session')).status).toBe(200);

    expect(await reset(2, true)).toMatchObject({ apiKeysRevoked: true });
    const revoked = await kept('GET', '/v1/auth/session');
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.code).toBe('INVALID_API_KEY');
  });
});

describe('/device wrong codes count per account first', () => {
  it("one account's 10 wrong codes lock out that account only: another on the same IP approves a valid code", {
    timeout: 60_000,
  }, async () => {
    const guesser = await signedInAccount(billing);
    const neighbour = await signedInAccount(billing);
    const show = (account: { cookie: string }, code: string) =>
      apiClient(gateway.url, { cookie: account.cookie, accept: 'application/json' })('GET', `/device?user_code=${code}`);
    for (let i = 0; i < 10; i++) expect((await show(guesser, `BCDF-GHJ${'KLMNPQRSTV'[i]}`)).status).toBe(404);
    const locked = await show(guesser, 'BCDF-GHJW');
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe('USER_CODE_RATE_LIMITED');

    const code = await requestDeviceCode(gateway.url, { scopes: ['data:read'], clientName: 'neighbour CLI' });
    expect(code.status, code.text).toBe(200);
    expect((await show(neighbour, code.body.user_code)).status).toBe(200);
    const form = new URLSearchParams({
      _csrf: neighbour.csrfToken,
      user_code: code.body.user_code,
      decision: 'approve',
      scope: 'data:read',
    });
    const approved = await apiClient(gateway.url, { cookie: neighbour.cookie, accept: 'application/json' })('POST', '/device', {
      rawBody: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved' });
  });
});
