import { accountSchema, getAccountInputSchema } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';
import { toAccount } from './to-account';

/** The account as its owner sees it; a deleted one is ACCOUNT_NOT_FOUND. */
export function getAccount({ repo }: BillingDeps) {
  return procedure
    .input(getAccountInputSchema)
    .output(accountSchema)
    .query(async ({ input }) => {
      const account = await repo.accounts.findById(input.accountId);
      if (!account || account.deletedAt) throw new AppError('ACCOUNT_NOT_FOUND');
      return toAccount(account);
    });
}
