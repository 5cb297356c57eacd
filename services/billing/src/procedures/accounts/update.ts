import { accountSchema, updateAccountInputSchema } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';
import { toAccount } from './to-account';

/** Renames the account (null clears the name). */
export function updateAccount({ repo }: BillingDeps) {
  return procedure
    .input(updateAccountInputSchema)
    .output(accountSchema)
    .mutation(async ({ input }) => {
      const account = await repo.accounts.setName(input.accountId, input.name);
      if (!account) throw new AppError('ACCOUNT_NOT_FOUND');
      return toAccount(account);
    });
}
