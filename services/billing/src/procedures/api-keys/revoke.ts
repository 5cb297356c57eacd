import { deletedSchema, revokeApiKeyInputSchema } from '@vrs/contracts';
import { AppError, procedure, requestLogFields } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';

/**
 * Revokes (deletes) a key: it stops verifying at once, and gateways stop accepting it within their
 * auth-cache time. An unknown key, another account's, or one already revoked is API_KEY_NOT_FOUND.
 */
export function revokeApiKey({ repo, logger }: BillingDeps) {
  return procedure
    .input(revokeApiKeyInputSchema)
    .output(deletedSchema)
    .mutation(async ({ input: { accountId, keyId }, ctx }) => {
      if (!(await repo.apiKeys.revoke(accountId, keyId))) throw new AppError('API_KEY_NOT_FOUND');
      logger.info({ accountId, keyId, ...requestLogFields(ctx) }, 'api key revoked');
      return { id: keyId, deleted: true as const };
    });
}
