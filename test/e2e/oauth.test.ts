import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import * as oidc from 'openid-client';
import { launchBrowser, type BrowserHandle } from '@vrs/testing/browser';
import { apiClient } from '@vrs/testing/api-client';
import { billingClient, signedInAccount } from './device-flow-support';
import { approveConsent, insecure, pkcePair, postForm, registerClient } from './oauth-support';

const gatewayUrl = inject('gatewayUrl');
const billing = billingClient(inject('stackEnv'));
const server = new URL(gatewayUrl);
const redirectUri = 'http://127.0.0.1:9/callback';

let browser: BrowserHandle;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const bearer = (token: string) => apiClient(gatewayUrl, { authorization: `Bearer ${token}` });

describe('OAuth metadata (RFC 8414, RFC 9728)', () => {
  it('advertises only S256, and every endpoint it names answers', async () => {
    const response = await fetch(`${gatewayUrl}/.well-known/oauth-authorization-server`);
    expect(response.status).toBe(200);
    const metadata = (await response.json()) as Record<string, string> & {
      authorization_endpoint: string;
      token_endpoint: string;
      device_authorization_endpoint: string;
      revocation_endpoint: string;
    };
    expect(metadata.issuer).toBe(gatewayUrl.replace(/\/$/, ''));
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.grant_types_supported).toEqual(
      expect.arrayContaining(['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code']),
    );
    // Each endpoint exists: a bare request is refused by the endpoint itself, never a 404.
    const authorize = await fetch(metadata.authorization_endpoint, { redirect: 'manual' });
    expect(authorize.status).toBe(400);
    expect(authorize.headers.get('location')).toBeNull();
    for (const endpoint of [metadata.token_endpoint, metadata.device_authorization_endpoint, metadata.revocation_endpoint]) {
      const answer = await postForm(endpoint, {});
      expect([400, 401], `${endpoint}: ${JSON.stringify(answer.body)}`).toContain(answer.status);
      expect(answer.body.error).toMatch(/^invalid_(request|client)$/);
      expect(answer.cacheControl).toBe('no-store');
    }
    expect((await registerClient(gatewayUrl, {})).body.error).toBe('invalid_redirect_uri');

    for (const [path, resource] of [
      ['/.well-known/oauth-protected-resource/mcp', '/mcp'],
      ['/.well-known/oauth-protected-resource/v1', '/v1'],
    ] as const) {
      const prm = await (await fetch(gatewayUrl + path)).json();
      expect(prm).toMatchObject({ resource: metadata.issuer + resource, authorization_servers: [metadata.issuer] });
    }
  });

  it('/mcp without a credential points to its protected-resource metadata', async () => {
    const response = await fetch(`${gatewayUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${gatewayUrl.replace(/\/$/, '')}/.well-known/oauth-protected-resource/mcp", scope="data:read"`,
    );
  });
});

describe('the device flow with an unmodified openid-client (RFC 8628)', () => {
  it('registers, asks, is approved in chromium, polls, and uses, refreshes and revokes its token', async () => {
    const config = await oidc.dynamicClientRegistration(
      server,
      { client_name: 'openid-client device test', grant_types: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'] },
      oidc.None(),
      insecure,
    );
    const device = await oidc.initiateDeviceAuthorization(config, { scope: 'data:read data:write' });
    expect(device.verification_uri).toBe(`${gatewayUrl.replace(/\/$/, '')}/device`);
    const polling = oidc.pollDeviceAuthorizationGrant(config, device);

    const owner = await signedInAccount(billing);
    const context = await browser.newContext();
    try {
      await context.addCookies([{ name: 'vrs_session', value: owner.cookieToken, url: gatewayUrl }]);
      const page = await context.newPage();
      await page.goto(device.verification_uri_complete!);
      await expect.poll(() => page.getByTestId('user-code').textContent()).toBe(device.user_code);
      expect(await page.getByText('openid-client device test').count()).toBeGreaterThan(0);
      await page.getByLabel(/data:write/).uncheck();
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.waitForSelector('[data-outcome="approved"]');
    } finally {
      await context.close();
    }

    const tokens = await polling;
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.scope).toBe('data:read');
    expect(tokens.expires_in).toBeGreaterThan(3000);
    expect(tokens.expires_in).toBeLessThanOrEqual(3600);
    expect(tokens.refresh_token).toMatch(/^atr_/);

    const api = bearer(tokens.access_token);
    expect((await api('GET', '/v1/projects')).status).toBe(200);
    expect((await api('POST', '/v1/projects', { json: { name: 'not approved' } })).status).toBe(403);
    const who = await api('GET', '/v1/auth/session');
    expect(who.body).toMatchObject({ account: { id: owner.accountId }, credential: { kind: 'oauth' }, scopes: ['data:read'] });
    const listed = await apiClient(gatewayUrl, { cookie: owner.cookie })('GET', '/v1/auth/sessions');
    expect(listed.status).toBe(200);
    expect(listed.body.data.find((session: { kind: string }) => session.kind === 'oauth')).toMatchObject({
      label: 'openid-client device test',
      scopes: ['data:read'],
    });
    // The device code was exchanged once.
    const again = await postForm(`${gatewayUrl}/oauth/token`, {
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      device_code: device.device_code,
      client_id: config.clientMetadata().client_id,
    });
    expect(again).toMatchObject({ status: 400, body: { error: 'invalid_grant' }, cacheControl: 'no-store' });

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect((await api('GET', '/v1/projects')).status).toBe(401);
    expect((await bearer(refreshed.access_token)('GET', '/v1/projects')).status).toBe(200);

    await oidc.tokenRevocation(config, refreshed.refresh_token!);
    expect((await bearer(refreshed.access_token)('GET', '/v1/projects')).status).toBe(401);
    expect((await billing.sessions.list.query({ accountId: owner.accountId })).data.some((s) => s.kind === 'oauth')).toBe(false);
  });

  it('answers the RFC 8628 errors at the top level: pending, then slow_down for a poll within the interval', {
    timeout: 60_000,
  }, async () => {
    const registered = await registerClient(gatewayUrl, { grant_types: ['urn:ietf:params:oauth:grant-type:device_code'] });
    expect(registered.status).toBe(201);
    const clientId = registered.body.client_id as string;
    const started = await postForm(`${gatewayUrl}/oauth/device_authorization`, { client_id: clientId });
    expect(started.status).toBe(200);
    const poll = { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: started.body.device_code, client_id: clientId };
    expect(await postForm(`${gatewayUrl}/oauth/token`, poll)).toMatchObject({ status: 400, body: { error: 'authorization_pending' } });
    expect(await postForm(`${gatewayUrl}/oauth/token`, poll)).toMatchObject({ status: 400, body: { error: 'slow_down' } });
    // Bound to the client that asked: another client's poll is invalid_grant; no client_id is invalid_client.
    const other = (await registerClient(gatewayUrl, { grant_types: ['urn:ietf:params:oauth:grant-type:device_code'] })).body.client_id;
    expect(await postForm(`${gatewayUrl}/oauth/token`, { ...poll, client_id: other })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    const { client_id: _dropped, ...anonymous } = poll;
    expect(await postForm(`${gatewayUrl}/oauth/token`, anonymous)).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    // The same code refused by the JSON variant, which never issued it.
    const json = await apiClient(gatewayUrl)('POST', '/v1/auth/device/token', { json: { device_code: poll.device_code } });
    expect(json.status).toBe(400);
  });
});

describe('authorization code with PKCE and an unmodified openid-client', () => {
  async function registeredClient() {
    return oidc.dynamicClientRegistration(
      server,
      { client_name: 'openid-client code test', redirect_uris: [redirectUri], grant_types: ['authorization_code', 'refresh_token'] },
      oidc.None(),
      insecure,
    );
  }

  async function authorizationResponse(
    config: oidc.Configuration,
    signedIn: { cookie: string; csrfToken: string },
    scope = 'data:read data:write',
  ) {
    const pkce = pkcePair();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      state,
    });
    const approved = await approveConsent(url.href, signedIn);
    expect(approved.status, approved.page).toBe(303);
    return { callback: new URL(approved.location!), pkce, state };
  }

  it('approves on the consent page, exchanges the code, and rotates refresh tokens', async () => {
    const config = await registeredClient();
    const owner = await signedInAccount(billing);
    const { callback, pkce, state } = await authorizationResponse(config, owner);
    expect(callback.origin + callback.pathname).toBe(redirectUri);
    expect(callback.searchParams.get('state')).toBe(state);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: pkce.verifier, expectedState: state });
    expect(tokens.scope).toBe('data:read data:write');
    const created = await bearer(tokens.access_token)('POST', '/v1/projects', { json: { name: 'via OAuth' } });
    expect(created.status).toBe(200);

    // Rotation: each refresh token works once; replaying the first revokes the whole grant.
    const second = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    const third = await oidc.refreshTokenGrant(config, second.refresh_token!);
    expect((await bearer(third.access_token)('GET', '/v1/projects')).status).toBe(200);
    const replay = await oidc.refreshTokenGrant(config, tokens.refresh_token!).catch((error: unknown) => error);
    expect(replay).toBeInstanceOf(oidc.ResponseBodyError);
    expect((replay as oidc.ResponseBodyError).error).toBe('invalid_grant');
    expect((await bearer(third.access_token)('GET', '/v1/projects')).status).toBe(401);
    const afterReuse = await oidc.refreshTokenGrant(config, third.refresh_token!).catch((error: unknown) => error);
    expect((afterReuse as oidc.ResponseBodyError).error).toBe('invalid_grant');
  });

  it('refuses as the RFCs say: wrong verifier, reused code, plain PKCE, unknown redirect URI, missing client_id', {
    timeout: 90_000,
  }, async () => {
    const config = await registeredClient();
    const clientId = config.clientMetadata().client_id;
    const owner = await signedInAccount(billing);
    const token = `${gatewayUrl}/oauth/token`;

    // A wrong verifier: invalid_grant, and the code is still unused only for its rightful verifier.
    const first = await authorizationResponse(config, owner);
    const code = first.callback.searchParams.get('code')!;
    const exchange = { grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: clientId };
    expect(await postForm(token, { ...exchange, code_verifier: pkcePair().verifier })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
      cacheControl: 'no-store',
    });
    // Another redirect URI than the code's: invalid_grant.
    expect(
      await postForm(token, { ...exchange, redirect_uri: 'http://127.0.0.1:9/other', code_verifier: first.pkce.verifier }),
    ).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    const granted = await postForm(token, { ...exchange, code_verifier: first.pkce.verifier });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    // The code again: invalid_grant, and what the first exchange issued is revoked (RFC 6749 §4.1.2).
    expect(await postForm(token, { ...exchange, code_verifier: first.pkce.verifier })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect((await bearer(granted.body.access_token)('GET', '/v1/projects')).status).toBe(401);

    // Missing client_id at the token endpoint: invalid_client (401).
    expect(
      await postForm(token, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: first.pkce.verifier }),
    ).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(await postForm(token, { grant_type: 'password', client_id: clientId })).toMatchObject({
      status: 400,
      body: { error: 'unsupported_grant_type' },
    });

    const authorize = (params: Record<string, string>) =>
      fetch(`${gatewayUrl}/oauth/authorize?${new URLSearchParams(params)}`, { headers: { cookie: owner.cookie }, redirect: 'manual' });
    const pkce = pkcePair();
    const valid = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      state: 'xyz',
    };
    expect((await authorize(valid)).status).toBe(200);
    // plain PKCE, or none: back to the client with invalid_request and its state.
    for (const refused of [
      { ...valid, code_challenge_method: 'plain', code_challenge: pkce.verifier },
      { ...valid, code_challenge_method: '' },
    ]) {
      const answer = await authorize(refused);
      expect(answer.status).toBe(302);
      const location = new URL(answer.headers.get('location')!);
      expect(location.origin + location.pathname).toBe(redirectUri);
      expect(Object.fromEntries(location.searchParams)).toMatchObject({ error: 'invalid_request', state: 'xyz' });
    }
    // An unregistered redirect URI, or no client_id: an error page, never a redirect (RFC 9700 §4.1).
    for (const refused of [
      { ...valid, redirect_uri: 'https://attacker.example/cb' },
      { ...valid, client_id: '' },
    ]) {
      const answer = await authorize(refused);
      expect(answer.status).toBe(400);
      expect(answer.headers.get('location')).toBeNull();
      expect(await answer.text()).toContain('data-testid="oauth-error"');
    }
    // Deny: access_denied at the redirect URI.
    const denied = await approveConsent(`${gatewayUrl}/oauth/authorize?${new URLSearchParams(valid)}`, owner, 'deny');
    expect(Object.fromEntries(new URL(denied.location!).searchParams)).toMatchObject({ error: 'access_denied', state: 'xyz' });
    // Without the CSRF token the form is refused.
    const forged = await fetch(`${gatewayUrl}/oauth/authorize`, {
      method: 'POST',
      headers: { cookie: owner.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...valid, decision: 'approve', approved_scope: 'data:read' }),
      redirect: 'manual',
    });
    expect(forged.status).toBe(403);
    expect(forged.headers.get('location')).toBeNull();
  });

  it('registration refuses redirect URIs that are neither https nor loopback http', async () => {
    for (const uri of ['http://example.com/cb', 'https://example.com/cb#fragment', 'javascript:alert(1)', 'not a uri']) {
      const answer = await registerClient(gatewayUrl, { redirect_uris: [uri] });
      expect(answer, uri).toMatchObject({ status: 400, body: { error: 'invalid_redirect_uri' } });
    }
    const ok = await registerClient(gatewayUrl, { redirect_uris: ['http://[::1]:8123/cb', 'https://app.example/cb'], client_name: 'ok' });
    expect(ok).toMatchObject({ status: 201, body: { token_endpoint_auth_method: 'none', grant_types: ['authorization_code'] } });
  });
});
