import { type BillingStatus, currentStateName, type PlanCatalogue } from '@vrs/contracts';
import type { AccountDoc } from '../../repo/accounts';

/** The public billing status of an account; an account opened before subscriptions reads as having no period. */
export function toBillingStatus(account: AccountDoc, plans: PlanCatalogue): BillingStatus {
  const { _id, plan, subscription, balance, reserved, granted, spent } = account;
  const { monthlyCredits, rateLimit } = plans[plan];
  return {
    accountId: _id,
    plan,
    subscription: {
      status: currentStateName(subscription.status),
      currentPeriodStart: subscription.currentPeriodStart ?? null,
      currentPeriodEnd: subscription.currentPeriodEnd,
      cancelAtPeriodEnd: subscription.cancelAtPeriodEnd ?? false,
    },
    planLimits: { monthlyCredits, rateLimit },
    credits: { balance, reserved, granted, spent },
  };
}
