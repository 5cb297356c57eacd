import { defaultPlanId, type PlanCatalogue, type PlanId } from '@vrs/contracts';
import { createEntryLruCache, type Logger } from '@vrs/kit';
import type { GatewayServices } from '../services';

/**
 * Each account's per-window request limit, from its plan (ADR 0032), cached per account as long as
 * verified keys are (AUTH_CACHE_TTL_MS): a plan change takes effect as fast as a key revocation, and
 * the hot path makes no service call. The catalogue's requests per minute are scaled to the window.
 * When billing cannot say, the account is limited as the default plan: requests still pass.
 */
export function createPlanRateLimits(
  services: GatewayServices,
  options: { plans: PlanCatalogue; windowMs: number; cacheTtlMs: number; logger: Logger },
) {
  const { plans, windowMs, cacheTtlMs, logger } = options;
  const fetchPlan = async (accountId: string): Promise<PlanId> => {
    try {
      return (await services.billing.status.get.query({ accountId })).plan;
    } catch (err) {
      logger.warn({ err, accountId }, 'plan unknown (billing did not answer): limiting as the default plan');
      return defaultPlanId;
    }
  };
  const cache =
    cacheTtlMs > 0 ? createEntryLruCache<string, PlanId>({ maxEntries: 10_000, ttl: cacheTtlMs, fetchMethod: fetchPlan }) : undefined;
  const perWindow = (plan: PlanId) => Math.max(1, Math.round((plans[plan].rateLimit.requestsPerMinute * windowMs) / 60_000));
  return async (accountId: string): Promise<number> => perWindow((await cache?.fetch(accountId)) ?? (await fetchPlan(accountId)));
}
