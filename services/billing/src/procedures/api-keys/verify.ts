import { verifiedApiKeySchema, verifyApiKeyInputSchema } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';

/** Null for any key that does not authenticate (unknown or revoked): the gateway answers 401 either way. */
export function verifyApiKey({ repo }: BillingDeps) {
  return procedure
    .input(verifyApiKeyInputSchema)
    .output(verifiedApiKeySchema)
    .query(async ({ input }) => {
      const apiKey = await repo.apiKeys.findActiveByKey(input.key);
      return apiKey ? { accountId: apiKey.accountId, keyId: apiKey._id, scopes: apiKey.scopes } : null;
    });
}
