import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBilling, type BillingHarness } from '../../testing/billing-harness';

let now = Date.parse('2026-01-01T00:00:00.000Z');
let billing: BillingHarness;
beforeAll(async () => {
  billing = await startBilling({ clock: () => now });
});
afterAll(() => billing?.remove());

const redirectUri = 'http://127.0.0.1:8123/callback';
const lifetimes = { accessTokenTtlSeconds: 3600, grantTtlSeconds: 30 * 86_400 };

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** A refusal's code and RFC value. */
async function refusal(call: Promise<unknown>) {
  try {
    await call;
  } catch (error) {
    const cause = (error as { cause?: { code: string; details?: { error?: string } } }).cause;
    return { code: cause?.code, error: cause?.details?.error };
  }
  throw new Error('the call succeeded');
}

async function approvedCode(options: { ttlSeconds?: number } = {}) {
  const { accountId } = await billing.call.accounts.create({});
  const client = await billing.call.oauth.registerClient({
    clientName: 'Unit client',
    redirectUris: [redirectUri],
    grantTypes: ['authorization_code', 'refresh_token'],
  });
  const pair = pkce();
  const { code } = await billing.call.oauth.issueCode({
    clientId: client.clientId,
    accountId,
    redirectUri,
    codeChallenge: pair.challenge,
    scopes: ['data:read'],
    ttlSeconds: options.ttlSeconds ?? 60,
  });
  const exchange = { code, clientId: client.clientId, redirectUri, codeVerifier: pair.verifier, ip: null, ...lifetimes };
  return { accountId, clientId: client.clientId, code, exchange };
}

describe('OAuth grants in billing', () => {
  it('stores codes and tokens only as hashes', async () => {
    const { exchange, code } = await approvedCode();
    const tokens = await billing.call.oauth.exchangeCode(exchange);
    const stored = JSON.stringify([
      await billing.store.collection('oauth_codes').find({}),
      await billing.store.collection('oauth_refresh_tokens').find({}),
      await billing.store.collection('sessions').find({}),
    ]);
    for (const secret of [code, tokens.accessToken, tokens.refreshToken]) expect(stored).not.toContain(secret);
  });

  it('a code expires after its ttl, before anyone exchanged it', async () => {
    const { exchange } = await approvedCode({ ttlSeconds: 60 });
    now += 60_000;
    expect(await refusal(billing.call.oauth.exchangeCode(exchange))).toEqual({ code: 'OAUTH_INVALID_GRANT', error: 'invalid_grant' });
  });

  it('of concurrent exchanges of one code exactly one gets tokens', async () => {
    const { exchange } = await approvedCode();
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => billing.call.oauth.exchangeCode(exchange)));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
  });

  it('an access token stops at its hour; the refresh token still works until the grant ends', async () => {
    const { exchange, clientId } = await approvedCode();
    const tokens = await billing.call.oauth.exchangeCode(exchange);
    expect(await billing.call.sessions.verify({ token: tokens.accessToken })).toMatchObject({ kind: 'oauth', scopes: ['data:read'] });
    now += 3600_000;
    expect(await billing.call.sessions.verify({ token: tokens.accessToken })).toBeNull();
    const refreshed = await billing.call.oauth.refresh({ refreshToken: tokens.refreshToken, clientId, accessTokenTtlSeconds: 3600 });
    expect(await billing.call.sessions.verify({ token: refreshed.accessToken })).not.toBeNull();
    now += 30 * 86_400_000;
    expect(await billing.call.sessions.verify({ token: refreshed.accessToken })).toBeNull();
    expect(
      await refusal(billing.call.oauth.refresh({ refreshToken: refreshed.refreshToken, clientId, accessTokenTtlSeconds: 3600 })),
    ).toEqual({
      code: 'OAUTH_INVALID_GRANT',
      error: 'invalid_grant',
    });
  });

  it('refuses a refresh by another client, or asking for more scopes, without using the token up', async () => {
    const { exchange, clientId } = await approvedCode();
    const tokens = await billing.call.oauth.exchangeCode(exchange);
    const request = { refreshToken: tokens.refreshToken, clientId, accessTokenTtlSeconds: 3600 };
    expect(await refusal(billing.call.oauth.refresh({ ...request, clientId: 'oac_someone_else' }))).toMatchObject({
      error: 'invalid_grant',
    });
    expect(await refusal(billing.call.oauth.refresh({ ...request, scopes: ['data:write'] }))).toMatchObject({ error: 'invalid_scope' });
    expect((await billing.call.oauth.refresh({ ...request, scopes: ['data:read'] })).scopes).toEqual(['data:read']);
  });

  it('revokes the grant by either token, only for its own client', async () => {
    const { exchange, clientId } = await approvedCode();
    const tokens = await billing.call.oauth.exchangeCode(exchange);
    expect(await billing.call.oauth.revoke({ token: tokens.refreshToken, clientId: 'oac_other' })).toEqual({ revoked: false });
    expect(await billing.call.oauth.revoke({ token: tokens.accessToken, clientId })).toEqual({ revoked: true });
    expect(await billing.call.sessions.verify({ token: tokens.accessToken })).toBeNull();
    expect(await billing.call.oauth.revoke({ token: tokens.refreshToken, clientId })).toEqual({ revoked: false });
  });
});
