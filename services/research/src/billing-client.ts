import type { BillingRouter } from '@vrs/billing';
import type { createServiceClient } from '@vrs/kit';

/** The billing service as research calls it: jobs settle the credits the gateway held for them. */
export type BillingClient = ReturnType<typeof createServiceClient<BillingRouter>>;
