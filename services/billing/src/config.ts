import { z } from 'zod';
import { baseEnvShape } from '@vrs/kit';
import { planCatalogue } from '@vrs/contracts';

const builtInPlans = planCatalogue();
const requestsPerMinute = (plan: keyof typeof builtInPlans) =>
  z.coerce.number().int().min(1).default(builtInPlans[plan].rateLimit.requestsPerMinute);

/**
 * Per-account rate limits of each plan, in requests per minute (ADR 0032). Billing shows them in the
 * catalogue and the gateway enforces them, so both read the same variables.
 */
export const planEnvShape = {
  PLAN_FREE_REQUESTS_PER_MINUTE: requestsPerMinute('free'),
  PLAN_PRO_REQUESTS_PER_MINUTE: requestsPerMinute('pro'),
  PLAN_TEAM_REQUESTS_PER_MINUTE: requestsPerMinute('team'),
};

/** The plan catalogue with this deployment's rate limits. */
export function planCatalogueOf(env: { [K in keyof typeof planEnvShape]: number }) {
  return planCatalogue({
    free: env.PLAN_FREE_REQUESTS_PER_MINUTE,
    pro: env.PLAN_PRO_REQUESTS_PER_MINUTE,
    team: env.PLAN_TEAM_REQUESTS_PER_MINUTE,
  });
}

/** Email sign-in (ADR 0034); the gateway reads them too when it hosts billing in-process. */
export const identityEnvShape = {
  /** How long an emailed verification link works. */
  EMAIL_VERIFICATION_TTL_MS: z.coerce
    .number()
    .int()
    .min(60_000)
    .default(24 * 3_600_000),
  /** How long an emailed password-reset link works. */
  PASSWORD_RESET_TTL_MS: z.coerce.number().int().min(60_000).default(3_600_000),
  /** log2 of scrypt's N for new password hashes (ADR 0034); lower only in tests. A hash keeps its own cost, so raising it is safe. */
  PASSWORD_SCRYPT_LOG_N: z.coerce.number().int().min(12).max(20).default(17),
};

export const billingEnvSchema = z.object({
  ...baseEnvShape,
  /** Credits every new account (demo or real) starts with. */
  BILLING_STARTING_CREDITS: z.coerce.number().int().min(0).default(1000),
  /** How long a reservation holds credits unless settled or refunded: longer than any metered operation runs. */
  BILLING_RESERVATION_TTL_MS: z.coerce
    .number()
    .int()
    .min(1)
    .default(15 * 60_000),
  /** How often the sweepers return the credits of expired reservations and renew ended billing periods. */
  BILLING_SWEEP_INTERVAL_MS: z.coerce.number().int().min(10).default(60_000),
  ...planEnvShape,
  ...identityEnvShape,
});
export type BillingConfig = z.infer<typeof billingEnvSchema>;
