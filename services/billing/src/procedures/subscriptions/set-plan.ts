import { billingStatusSchema, setPlanInputSchema } from '@vrs/contracts';
import { AppError, procedure, requestLogFields } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';
import { toBillingStatus } from '../status/to-billing-status';

/**
 * The operator's plan change (`npm run billing:set-plan`), until a payment provider's webhooks
 * call it instead (ADR 0032). Answers the account's billing status after the change.
 */
export function setPlan({ repo, plans, logger }: BillingDeps) {
  return procedure
    .input(setPlanInputSchema)
    .output(billingStatusSchema)
    .mutation(async ({ input: { accountId, plan, status }, ctx }) => {
      const account = await repo.changePlan(accountId, plan, status);
      if (!account) throw new AppError('ACCOUNT_NOT_FOUND');
      logger.info({ accountId, plan, status, ...requestLogFields(ctx) }, 'plan changed');
      return toBillingStatus(account, plans);
    });
}
