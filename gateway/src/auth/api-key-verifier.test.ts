import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { GatewayServices } from '../services';
import { bearerApiKeyAuthenticator, createApiKeyVerifier } from './api-key-authenticators';

/** Billing's verify procedure, answering from a fixed set of keys and counting its calls. */
function billingWithKeys(keys: Record<string, string>) {
  const calls: string[] = [];
  const services = {
    billing: {
      apiKeys: {
        verify: {
          query: async ({ key }: { key: string }) => {
            calls.push(key);
            const accountId = keys[key];
            return accountId ? { status: 'valid', accountId, keyId: `key_${accountId}`, scopes: ['data:read'], expiresAt: null } : null;
          },
        },
      },
    },
  } as unknown as GatewayServices;
  return { services, calls };
}

describe('API key verification cache', () => {
  it('serves a known key from the cache, however many unknown keys flood in', async () => {
    const { services, calls } = billingWithKeys({ aty_good: 'acct_1' });
    const verify = createApiKeyVerifier(services, { cacheTtlMs: 60_000, maxKeys: 100 });
    expect(await verify('aty_good')).toMatchObject({ accountId: 'acct_1' });
    for (let n = 0; n < 1_000; n++) expect(await verify(`aty_bad_${n}`)).toBeNull();
    calls.length = 0;
    expect(await verify('aty_good')).toMatchObject({ accountId: 'acct_1' });
    // A recently refused key is refused from the cache too.
    expect(await verify('aty_bad_999')).toBeNull();
    expect(calls).toEqual([]);
  });

  it('asks billing every time when caching is off (AUTH_CACHE_TTL_MS=0), so revocation is immediate', async () => {
    const { services, calls } = billingWithKeys({ aty_good: 'acct_1' });
    const verify = createApiKeyVerifier(services, { cacheTtlMs: 0 });
    await verify('aty_good');
    await verify('aty_good');
    await verify('aty_bad');
    await verify('aty_bad');
    expect(calls).toEqual(['aty_good', 'aty_good', 'aty_bad', 'aty_bad']);
  });

  it("forgetAccount drops that account's cached keys, and only those, so their next use asks billing", async () => {
    const keys: Record<string, string> = { aty_deleted: 'acct_deleted', aty_other: 'acct_deleted', aty_kept: 'acct_kept' };
    const { services, calls } = billingWithKeys(keys);
    const verify = createApiKeyVerifier(services, { cacheTtlMs: 60_000 });
    for (const key of Object.keys(keys)) await verify(key);
    // Billing refuses the deleted account's keys from now on; the cache would still accept them.
    delete keys.aty_deleted;
    delete keys.aty_other;
    expect(await verify('aty_deleted')).toMatchObject({ accountId: 'acct_deleted' });
    calls.length = 0;

    verify.forgetAccount('acct_deleted');
    expect(await verify('aty_deleted')).toBeNull();
    expect(await verify('aty_other')).toBeNull();
    expect(await verify('aty_kept')).toMatchObject({ accountId: 'acct_kept' });
    expect(calls).toEqual(['aty_deleted', 'aty_other']);
  });
});

describe('API key authentication', () => {
  const request = (key: string) => ({ headers: { authorization: `Bearer ${key}` } }) as IncomingMessage;

  it('refuses a cached key once its expiresAt passes (API_KEY_EXPIRED), and notes each accepted use', async () => {
    const expiresAt = '2026-06-01T00:00:00.000Z';
    const services = {
      billing: {
        apiKeys: {
          verify: {
            query: async () => ({ status: 'valid', accountId: 'acct_1', keyId: 'key_1', scopes: ['data:read'], expiresAt }),
          },
        },
      },
    } as unknown as GatewayServices;
    const noted: string[] = [];
    let now = Date.parse(expiresAt) - 1000;
    const authenticator = bearerApiKeyAuthenticator({
      verify: createApiKeyVerifier(services, { cacheTtlMs: 60_000 }),
      uses: { note: (keyId) => noted.push(keyId) },
      clock: () => now,
    });
    expect(await authenticator.authenticate(request('aty_short'))).toMatchObject({ accountId: 'acct_1', keyId: 'key_1' });
    expect(noted).toEqual(['key_1']);
    now = Date.parse(expiresAt);
    await expect(authenticator.authenticate(request('aty_short'))).rejects.toMatchObject({
      code: 'API_KEY_EXPIRED',
      details: { expiresAt },
    });
    expect(noted).toEqual(['key_1']);
  });
});
