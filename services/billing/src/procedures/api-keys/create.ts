import { createApiKeyInputSchema, createdApiKeySchema, maxActiveApiKeysPerAccount } from '@vrs/contracts';
import { AppError, newId, procedure, requestLogFields } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';
import { hashToken } from '../../identity/tokens';
import { displayPrefixLength, generateApiKey, toApiKey, type ApiKeyDoc } from '../../repo/api-keys';

/**
 * Issues a key. The key is in this response only; what is stored is its hash and a display prefix.
 * The cap on active keys is checked before the insert, not with it: two creates racing at the cap
 * may both pass, which a cap against runaway scripts can afford (ADR 0031).
 */
export function createApiKey({ repo, logger }: BillingDeps) {
  return procedure
    .input(createApiKeyInputSchema)
    .output(createdApiKeySchema)
    .mutation(async ({ input, ctx }) => {
      if (!(await repo.accounts.findActive(input.accountId))) throw new AppError('ACCOUNT_NOT_FOUND');
      if ((await repo.apiKeys.countActive(input.accountId)) >= maxActiveApiKeysPerAccount) {
        throw new AppError('API_KEY_LIMIT_REACHED', undefined, { limit: maxActiveApiKeysPerAccount });
      }
      const key = generateApiKey();
      const apiKey: ApiKeyDoc = {
        _id: newId('key'),
        accountId: input.accountId,
        name: input.name,
        hash: hashToken(key),
        prefix: key.slice(0, displayPrefixLength),
        scopes: input.scopes,
        createdAt: new Date().toISOString(),
        expiresAt: input.expiresAt ? new Date(input.expiresAt).toISOString() : null,
        lastUsedAt: null,
        revokedAt: null,
      };
      await repo.apiKeys.insert(apiKey);
      logger.info({ accountId: apiKey.accountId, keyId: apiKey._id, prefix: apiKey.prefix, ...requestLogFields(ctx) }, 'api key created');
      return { ...toApiKey(apiKey), key };
    });
}
