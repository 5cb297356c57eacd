import { verifiedApiKeySchema, verifyApiKeyInputSchema } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';

/**
 * Null for any key that does not authenticate (unknown, revoked, or of a deleted account): the gateway
 * answers 401 either way. A deleted account's keys are revoked with it; the account check covers a
 * key created in the instant before (ADR 0033).
 */
export function verifyApiKey({ repo }: BillingDeps) {
  return procedure
    .input(verifyApiKeyInputSchema)
    .output(verifiedApiKeySchema)
    .query(async ({ input }) => {
      const apiKey = await repo.apiKeys.findActiveByKey(input.key);
      if (!apiKey || !(await repo.accounts.findActive(apiKey.accountId))) return null;
      return { accountId: apiKey.accountId, keyId: apiKey._id, scopes: apiKey.scopes };
    });
}
