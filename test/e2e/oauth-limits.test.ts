import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient } from '@vrs/testing/api-client';
import { startGatewayProcess, type RunningProcess } from '@vrs/testing/processes';
import { billingClient, signedInAccount, sleep } from './device-flow-support';
import { approveConsent, pkcePair, postForm, registerClient } from './oauth-support';

const stackEnv = inject('stackEnv');
const logDir = inject('logDir');
const billing = billingClient(stackEnv);
const redirectUri = 'http://127.0.0.1:9/callback';

// A gateway of its own beside the stack's, sharing the services: 2 s access tokens, 1 s codes and
// tight OAuth limits (its own window length, so its counts are its own).
let gateway: RunningProcess;
beforeAll(async () => {
  gateway = await startGatewayProcess(
    'gateway-oauth-limits',
    {
      ...stackEnv,
      OAUTH_ACCESS_TOKEN_TTL_SECONDS: '2',
      OAUTH_CODE_TTL_SECONDS: '1',
      OAUTH_TOKEN_REQUESTS_PER_IP: '3',
      OAUTH_REGISTRATIONS_PER_IP: '2',
      OAUTH_RATE_LIMIT_WINDOW_MS: '3600001',
    },
    logDir,
  );
});
afterAll(async () => {
  await gateway?.stop();
});

describe('OAuth lifetimes and limits on a gateway of their own', () => {
  it('a code dies after its second, an access token after its two; the refresh token still renews it', async () => {
    const registered = await registerClient(gateway.url, {
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
    });
    expect(registered.status).toBe(201);
    const clientId = registered.body.client_id as string;
    const owner = await signedInAccount(billing);
    const authorize = (pkce: { challenge: string }) =>
      `${gateway.url}/oauth/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: redirectUri,
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
      })}`;
    const exchange = (code: string, verifier: string) =>
      postForm(`${gateway.url}/oauth/token`, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        client_id: clientId,
        code_verifier: verifier,
      });

    const late = pkcePair();
    const lateCode = new URL((await approveConsent(authorize(late), owner)).location!).searchParams.get('code')!;
    await sleep(1500);
    expect(await exchange(lateCode, late.verifier)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    const pkce = pkcePair();
    const code = new URL((await approveConsent(authorize(pkce), owner)).location!).searchParams.get('code')!;
    const tokens = await exchange(code, pkce.verifier);
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    expect(tokens.body.expires_in).toBeLessThanOrEqual(2);
    // Past its two seconds (however slow the machine, it is never less): refused.
    await sleep(2500);
    const expired = await apiClient(gateway.url, { authorization: `Bearer ${tokens.body.access_token}` })('GET', '/v1/projects');
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe('SESSION_INVALID');
    const renewed = await postForm(`${gateway.url}/oauth/token`, {
      grant_type: 'refresh_token',
      refresh_token: tokens.body.refresh_token,
      client_id: clientId,
    });
    expect(renewed.status).toBe(200);
    expect(renewed.body.access_token).not.toBe(tokens.body.access_token);
    expect(renewed.body.expires_in).toBeLessThanOrEqual(2);

    // That was the third token request from this address: the fourth is over the limit.
    const limited = await fetch(`${gateway.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: renewed.body.refresh_token, client_id: clientId }),
    });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('cache-control')).toBe('no-store');
    expect(await limited.json()).toMatchObject({ error: 'temporarily_unavailable' });
  });

  it('registrations are limited per address', async () => {
    // The first test registered one client: one more is allowed, then 429.
    expect((await registerClient(gateway.url, { redirect_uris: [redirectUri] })).status).toBe(201);
    const refused = await registerClient(gateway.url, { redirect_uris: [redirectUri] });
    expect(refused).toMatchObject({ status: 429, body: { error: 'temporarily_unavailable' } });
  });
});
