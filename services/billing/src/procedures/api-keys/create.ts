import { createApiKeyInputSchema, createdApiKeySchema } from '@vrs/contracts';
import { AppError, newId, procedure } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';
import { displayPrefixLength, generateApiKey, hashApiKey } from '../../repo/api-keys';

/** Issues a key. The key is in this response only; what is stored is its hash and a display prefix. */
export function createApiKey({ repo, logger }: BillingDeps) {
  return procedure
    .input(createApiKeyInputSchema)
    .output(createdApiKeySchema)
    .mutation(async ({ input }) => {
      if (!(await repo.accounts.findActive(input.accountId))) throw new AppError('ACCOUNT_NOT_FOUND');
      const key = generateApiKey();
      const apiKey = {
        _id: newId('key'),
        accountId: input.accountId,
        name: input.name,
        hash: hashApiKey(key),
        prefix: key.slice(0, displayPrefixLength),
        scopes: input.scopes,
        createdAt: new Date().toISOString(),
        revokedAt: null,
      };
      await repo.apiKeys.insert(apiKey);
      logger.info({ accountId: apiKey.accountId, keyId: apiKey._id, prefix: apiKey.prefix }, 'api key created');
      return { id: apiKey._id, key, prefix: apiKey.prefix, scopes: apiKey.scopes };
    });
}
