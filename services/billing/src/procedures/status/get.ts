import { billingStatusSchema, getBillingStatusInputSchema } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';
import { toBillingStatus } from './to-billing-status';

export function getBillingStatus({ repo, plans }: BillingDeps) {
  return procedure
    .input(getBillingStatusInputSchema)
    .output(billingStatusSchema)
    .query(async ({ input }) => {
      const account = await repo.accounts.findById(input.accountId);
      if (!account) throw new AppError('ACCOUNT_NOT_FOUND');
      return toBillingStatus(account, plans);
    });
}
