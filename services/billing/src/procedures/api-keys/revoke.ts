import { accountRefSchema } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import { z } from 'zod';
import type { BillingDeps } from '../../billing-deps';

const revokeApiKeyInputSchema = accountRefSchema.extend({ keyId: z.string().min(1) });

/** Idempotent: revoking a key again answers the same. A key of another account is NOT_FOUND, never revoked. */
export function revokeApiKey({ repo, logger }: BillingDeps) {
  return procedure
    .input(revokeApiKeyInputSchema)
    .output(z.object({ revoked: z.literal(true) }))
    .mutation(async ({ input: { accountId, keyId } }) => {
      if (await repo.apiKeys.revoke(accountId, keyId)) {
        logger.info({ accountId, keyId }, 'api key revoked');
      } else if (!(await repo.apiKeys.findOwned(accountId, keyId))) {
        throw new AppError('NOT_FOUND', 'API key not found.');
      }
      return { revoked: true as const };
    });
}
