/** Something that caches credentials per account (API keys, demo values, sessions). */
export interface AccountCredentialCache {
  forgetAccount(accountId: string): void;
  /** Caches of API keys drop one revoked key. */
  forgetApiKey?(keyId: string): void;
}

/**
 * Every credential cache of this gateway process, dropped together for an account that was deleted
 * (ADR 0033): by the gateway that served the deletion at once, by the others on `billing.account.deleted`.
 * A revoked key, and an account whose password was reset, are dropped at once by the gateway that
 * served the change; other replicas stop trusting them within AUTH_CACHE_TTL_MS (ADR 0082).
 */
export function createAuthCaches(caches: AccountCredentialCache[]) {
  return {
    forgetAccount(accountId: string): void {
      for (const cache of caches) cache.forgetAccount(accountId);
    },
    forgetApiKey(keyId: string): void {
      for (const cache of caches) cache.forgetApiKey?.(keyId);
    },
  };
}

export type AuthCaches = ReturnType<typeof createAuthCaches>;
