import { accountRefSchema, billingStatusSchema } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';

export function getBillingStatus({ repo }: BillingDeps) {
  return procedure
    .input(accountRefSchema)
    .output(billingStatusSchema)
    .query(async ({ input }) => {
      const account = await repo.accounts.findById(input.accountId);
      if (!account) throw new AppError('ACCOUNT_NOT_FOUND');
      const { _id, plan, subscription, balance, reserved, granted, spent } = account;
      return { accountId: _id, plan, subscription, credits: { balance, reserved, granted, spent } };
    });
}
