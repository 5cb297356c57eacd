import { z } from 'zod';
import { baseEnvShape } from '@vrs/kit';

export const billingEnvSchema = z.object({
  ...baseEnvShape,
  /** Credits every new account (demo or real) starts with. */
  BILLING_STARTING_CREDITS: z.coerce.number().int().min(0).default(1000),
});
export type BillingConfig = z.infer<typeof billingEnvSchema>;
