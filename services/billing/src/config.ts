import { z } from 'zod';
import { baseEnvShape } from '@vrs/kit';

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
  /** How often the sweeper returns the credits of expired reservations. */
  BILLING_SWEEP_INTERVAL_MS: z.coerce.number().int().min(10).default(60_000),
});
export type BillingConfig = z.infer<typeof billingEnvSchema>;
