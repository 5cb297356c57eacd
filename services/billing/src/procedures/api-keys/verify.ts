import { verifiedApiKeySchema, verifyApiKeyInputSchema } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';

/**
 * Null for a key that does not exist, was revoked, or belongs to a deleted account (ADR 0033: its
 * keys are revoked with it; the account check covers a key created in the instant before);
 * `expired` for one past its expiresAt (refused too, but the gateway can say why). A valid key
 * carries its expiresAt, so a gateway that caches it stops accepting it at that instant rather
 * than at the end of its cache time.
 */
export function verifyApiKey({ repo }: BillingDeps) {
  return procedure
    .input(verifyApiKeyInputSchema)
    .output(verifiedApiKeySchema)
    .query(async ({ input }) => {
      const apiKey = await repo.apiKeys.findUnrevokedByKey(input.key);
      if (!apiKey || !(await repo.accounts.findActive(apiKey.accountId))) return null;
      if (repo.apiKeys.isExpired(apiKey)) return { status: 'expired' as const, keyId: apiKey._id, expiresAt: apiKey.expiresAt };
      return {
        status: 'valid' as const,
        accountId: apiKey.accountId,
        keyId: apiKey._id,
        scopes: apiKey.scopes,
        expiresAt: apiKey.expiresAt ?? null,
      };
    });
}
