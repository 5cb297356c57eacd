// Puts an account on a plan (and sets its subscription status) through the billing service's
// internal endpoint of the running system: the operator's tool until a payment provider's webhooks
// do it (ADR 0032). Upgrades top the balance up to the new plan's monthly credits at once.
import { parseArgs } from 'node:util';
import { connectToRunningService } from '@vrs/runtime';
import { planSchema, settableSubscriptionStatusSchema } from '@vrs/contracts';
import type { BillingRouter } from '@vrs/billing';

const usage = 'usage: npm run billing:set-plan -- --account <accountId> --plan free|pro|team [--status active|past_due|cancelled]';
const { values } = parseArgs({ options: { account: { type: 'string' }, plan: { type: 'string' }, status: { type: 'string' } } });
const plan = planSchema.safeParse(values.plan);
const status = settableSubscriptionStatusSchema.optional().safeParse(values.status);
if (!values.account || !plan.success || !status.success) {
  console.error(usage);
  process.exit(64);
}
const { client: billing, unreachable } = await connectToRunningService<BillingRouter>('billing', { caller: 'billing-set-plan' });
try {
  const {
    accountId,
    plan: now,
    subscription,
    credits,
  } = await billing.subscriptions.setPlan.mutate({
    accountId: values.account,
    plan: plan.data,
    ...(status.data ? { status: status.data } : {}),
  });
  console.log(
    `account ${accountId}: plan ${now}, ${subscription.status}${subscription.cancelAtPeriodEnd ? ' (ends with the period)' : ''}, ` +
      `period ${subscription.currentPeriodStart} – ${subscription.currentPeriodEnd}, balance ${credits.balance} credits.`,
  );
} catch (error) {
  const code = (error as { data?: { appCode?: string } }).data?.appCode;
  console.error(code === 'ACCOUNT_NOT_FOUND' ? `account ${values.account} not found.` : unreachable(error));
  process.exit(1);
}
