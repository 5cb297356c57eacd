import { deleteAccountInputSchema } from '@vrs/contracts';
import { AppError, procedure, requestLogFields } from '@vrs/kit';
import { z } from 'zod';
import type { BillingDeps } from '../../billing-deps';

/** Deletes the account (`BillingRepo.deleteAccount`); every service honours its `billing.account.deleted` (ADR 0033). */
export function deleteAccount({ repo, outbox, logger }: BillingDeps) {
  return procedure
    .input(deleteAccountInputSchema)
    .output(z.object({ accountId: z.string(), deletedAt: z.string() }))
    .mutation(async ({ input, ctx }) => {
      const deleted = await repo.deleteAccount(input.accountId);
      if (!deleted) throw new AppError('ACCOUNT_NOT_FOUND');
      outbox.notify();
      logger.info({ accountId: deleted.accountId, keysRevoked: deleted.keysRevoked, ...requestLogFields(ctx) }, 'account deleted');
      return { accountId: deleted.accountId, deletedAt: deleted.deletedAt };
    });
}
