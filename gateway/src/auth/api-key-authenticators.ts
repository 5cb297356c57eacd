import { AppError } from '@vrs/kit';
import type { Scope } from '@vrs/contracts';
import type { Principal } from '../context';
import type { GatewayServices } from '../services';
import { bearerToken, singleHeader, type Authenticator } from './authenticator';
import { TtlCache } from './ttl-cache';

export const apiKeyPrefix = 'aty_';

/** Verifies keys with the billing service; a short-lived cache keeps the hot path free of a service call. */
export function createApiKeyVerifier(services: GatewayServices, options: { cacheTtlMs: number }) {
  const cache = new TtlCache<string, { accountId: string; keyId: string; scopes: Scope[] } | null>(options.cacheTtlMs, 10_000);
  return async (key: string) => {
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    const verified = await services.billing.apiKeys.verify.query({ key });
    cache.set(key, verified);
    return verified;
  };
}

type Verify = ReturnType<typeof createApiKeyVerifier>;

async function principalForKey(verify: Verify, key: string, scheme: Principal['scheme']): Promise<Principal> {
  const verified = key.startsWith(apiKeyPrefix) && key.length <= 200 ? await verify(key) : null;
  if (!verified) throw new AppError('INVALID_API_KEY');
  return { accountId: verified.accountId, keyId: verified.keyId, scheme, scopes: new Set(verified.scopes) };
}

/** `Authorization: Bearer aty_…`. Bearer tokens without the key prefix are left to the CLI-session scheme. */
export function bearerApiKeyAuthenticator(verify: Verify): Authenticator {
  return {
    scheme: 'bearerApiKey',
    async authenticate(req) {
      const token = bearerToken(req);
      if (!token?.startsWith(apiKeyPrefix)) return null;
      return principalForKey(verify, token, 'bearerApiKey');
    },
  };
}

/** `X-API-Key: aty_…`, the legacy-compatible header. */
export function headerApiKeyAuthenticator(verify: Verify): Authenticator {
  return {
    scheme: 'apiKey',
    async authenticate(req) {
      const key = singleHeader(req, 'x-api-key');
      if (key === undefined) return null;
      return principalForKey(verify, key.trim(), 'apiKey');
    },
  };
}
