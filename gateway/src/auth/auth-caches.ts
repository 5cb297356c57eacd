/** Something that caches credentials per account (API keys, demo values, sessions). */
export interface AccountCredentialCache {
  forgetAccount(accountId: string): void;
}

/**
 * Every credential cache of this gateway process, dropped together for an account that was deleted
 * (ADR 0033): by the gateway that served the deletion at once, by the others on `billing.account.deleted`.
 */
export function createAuthCaches(caches: AccountCredentialCache[]) {
  return {
    forgetAccount(accountId: string): void {
      for (const cache of caches) cache.forgetAccount(accountId);
    },
  };
}

export type AuthCaches = ReturnType<typeof createAuthCaches>;
