import { AppError, createEntryLruCache, forRequest } from '@vrs/kit';
import type { GatewayServices } from '../services';
import { requestContextOf, singleHeader, type Authenticator } from './authenticator';

/**
 * `X-Demo-User: <value>` selects an isolated demo account per value, for local development only.
 * With demo mode off the header is refused outright rather than ignored, so nobody mistakes a
 * production 401 for a missing key.
 */
export function demoUserAuthenticator(
  services: GatewayServices,
  options: { enabled: boolean },
): Authenticator & { forgetAccount(accountId: string): void } {
  // A demo value maps to one account until the account is deleted, so the mapping is cached without
  // expiry and dropped by `forgetAccount` (ADR 0033): billing then refuses the value.
  const accounts = createEntryLruCache<string, string>({ maxEntries: 10_000 });
  return {
    forgetAccount(accountId) {
      for (const [value, cached] of [...accounts.entries()]) if (cached === accountId) accounts.delete(value);
    },
    scheme: 'demoUser',
    async authenticate(req) {
      const value = singleHeader(req, 'x-demo-user')?.trim();
      if (value === undefined) return null;
      if (!options.enabled) throw new AppError('DEMO_MODE_DISABLED');
      if (value.length === 0 || value.length > 200) throw new AppError('UNAUTHENTICATED', 'X-Demo-User must be 1-200 characters.');
      let accountId = accounts.get(value);
      if (!accountId) {
        // The account's opening grant is a ledger line: it names the request that opened it.
        ({ accountId } = await forRequest(services.billing, requestContextOf(req)).accounts.ensureDemo.mutate({ demoUser: value }));
        accounts.set(value, accountId);
      }
      return { accountId, scheme: 'demoUser', scopes: 'owner' };
    },
  };
}
