import { describe, expect, it } from 'vitest';
import { planCatalogue, type PlanId } from '@vrs/contracts';
import { rootLogger } from '@vrs/kit';
import type { GatewayServices } from '../services';
import { createPlanRateLimits } from './plan-rate-limits';

const plans = planCatalogue({ free: 60, pro: 600 });
const logger = rootLogger.child({}, { level: 'silent' });

/** Billing's status procedure answering each account's plan (or failing), counting its calls. */
function billingWithPlans(planOf: Record<string, PlanId | 'down'>) {
  const calls: string[] = [];
  const services = {
    billing: {
      status: {
        get: {
          query: async ({ accountId }: { accountId: string }) => {
            calls.push(accountId);
            await new Promise((resolve) => setTimeout(resolve, 5));
            const plan = planOf[accountId];
            if (plan === 'down') throw new Error('billing unreachable');
            return { accountId, plan };
          },
        },
      },
    },
  } as unknown as GatewayServices;
  return { services, calls, planOf };
}

describe('per-account limits from the plan', () => {
  it('scale the plan’s rate to the window and cache the plan per account, sharing concurrent misses', async () => {
    const { services, calls, planOf } = billingWithPlans({ acct_free: 'free', acct_pro: 'pro' });
    const limitOf = createPlanRateLimits(services, { plans, windowMs: 10_000, cacheTtlMs: 60_000, logger });
    expect(await Promise.all([limitOf('acct_free'), limitOf('acct_free'), limitOf('acct_pro')])).toEqual([10, 10, 100]);
    planOf.acct_free = 'pro';
    expect(await limitOf('acct_free')).toBe(10);
    expect(calls.sort()).toEqual(['acct_free', 'acct_pro']);
  });

  it('see a plan change at once without a cache, and limit as free when billing does not answer', async () => {
    const { services, calls, planOf } = billingWithPlans({ acct_1: 'free', acct_down: 'down' });
    const limitOf = createPlanRateLimits(services, { plans, windowMs: 60_000, cacheTtlMs: 0, logger });
    expect(await limitOf('acct_1')).toBe(60);
    planOf.acct_1 = 'pro';
    expect(await limitOf('acct_1')).toBe(600);
    expect(await limitOf('acct_down')).toBe(60);
    expect(calls).toEqual(['acct_1', 'acct_1', 'acct_down']);
  });

  it('never drop below one request per window', async () => {
    const { services } = billingWithPlans({ acct_1: 'free' });
    const limitOf = createPlanRateLimits(services, { plans: planCatalogue({ free: 1 }), windowMs: 1_000, cacheTtlMs: 0, logger });
    expect(await limitOf('acct_1')).toBe(1);
  });
});
