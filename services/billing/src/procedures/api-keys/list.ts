import { apiKeyListSchema, listApiKeysInputSchema } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';

/** An account's keys, newest first: expired ones included, deleted (revoked) ones not; never a key or its hash. */
export function listApiKeys({ repo }: BillingDeps) {
  return procedure
    .input(listApiKeysInputSchema)
    .output(apiKeyListSchema)
    .query(({ input: { accountId, ...page } }) => repo.apiKeys.page(accountId, page));
}
