import { hash as digest } from 'node:crypto';
import { AppError, createEntryLruCache } from '@vrs/kit';
import type { VerifiedApiKey } from '@vrs/contracts';
import type { Principal } from '../context';
import type { GatewayServices } from '../services';
import { bearerToken, singleHeader, type Authenticator } from './authenticator';
import type { KeyUseNotes } from './key-use-recorder';

export const apiKeyPrefix = 'aty_';

type VerifiedKey = NonNullable<VerifiedApiKey>;

/**
 * Verifies keys with the billing service; short-lived caches keep the hot path free of a service
 * call. Known and unknown keys are cached apart, so a flood of made-up keys only churns the unknown
 * ones and never evicts a customer's key. Entries are keyed by the key's hash, not the key.
 * `forgetAccount` drops an account's keys (deleted, ADR 0033; password reset, ADR 0082), `forgetApiKey`
 * one revoked key: its next use asks billing, which refuses it.
 */
export function createApiKeyVerifier(services: GatewayServices, options: { cacheTtlMs: number; maxKeys?: number }) {
  const caching = options.cacheTtlMs > 0;
  const known = createEntryLruCache<string, VerifiedKey>({ maxEntries: options.maxKeys ?? 10_000, ttl: Math.max(options.cacheTtlMs, 1) });
  const unknown = createEntryLruCache<string, true>({ maxEntries: options.maxKeys ?? 10_000, ttl: Math.max(options.cacheTtlMs, 1) });
  const verify = async (key: string): Promise<VerifiedKey | null> => {
    const hash = digest('sha256', key, 'base64url');
    if (caching) {
      const cached = known.get(hash);
      if (cached) return cached;
      if (unknown.has(hash)) return null;
    }
    const verified = await services.billing.apiKeys.verify.query({ key });
    if (caching) {
      if (verified) known.set(hash, verified);
      else unknown.set(hash, true);
    }
    return verified;
  };
  return Object.assign(verify, {
    forgetApiKey(keyId: string): void {
      for (const [hash, cached] of [...known.entries()]) if (cached.keyId === keyId) known.delete(hash);
    },
    forgetAccount(accountId: string): void {
      for (const [hash, cached] of [...known.entries()])
        if (cached.status === 'valid' && cached.accountId === accountId) known.delete(hash);
    },
  });
}

/** How API keys are checked: billing's verdict (cached), and where each accepted key's use is noted. */
export interface ApiKeyChecks {
  verify: ReturnType<typeof createApiKeyVerifier>;
  uses: KeyUseNotes;
  clock?: () => number;
}

async function principalForKey(
  { verify, uses, clock = Date.now }: ApiKeyChecks,
  key: string,
  scheme: Principal['scheme'],
): Promise<Principal> {
  const verified = key.startsWith(apiKeyPrefix) && key.length <= 200 ? await verify(key) : null;
  if (!verified) throw new AppError('INVALID_API_KEY');
  // A cached verdict may outlive the key's expiry: the expiry is checked on every request.
  if (verified.status === 'expired' || (verified.expiresAt !== null && Date.parse(verified.expiresAt) <= clock())) {
    throw new AppError('API_KEY_EXPIRED', undefined, { expiresAt: verified.expiresAt });
  }
  uses.note(verified.keyId);
  return { accountId: verified.accountId, keyId: verified.keyId, scheme, scopes: new Set(verified.scopes) };
}

/** `Authorization: Bearer aty_…`. Bearer tokens without the key prefix are left to the CLI-session scheme. */
export function bearerApiKeyAuthenticator(checks: ApiKeyChecks): Authenticator {
  return {
    scheme: 'bearerApiKey',
    async authenticate(req) {
      const token = bearerToken(req);
      if (!token?.startsWith(apiKeyPrefix)) return null;
      return principalForKey(checks, token, 'bearerApiKey');
    },
  };
}

/** `X-API-Key: aty_…`, the legacy-compatible header. */
export function headerApiKeyAuthenticator(checks: ApiKeyChecks): Authenticator {
  return {
    scheme: 'apiKey',
    async authenticate(req) {
      const key = singleHeader(req, 'x-api-key');
      if (key === undefined) return null;
      return principalForKey(checks, key.trim(), 'apiKey');
    },
  };
}
