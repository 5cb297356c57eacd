import { healthProcedure } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';

/** Readiness of the service: its store, the only dependency its requests have (events go through the outbox). */
export function checkHealth({ repo }: BillingDeps) {
  return healthProcedure({ store: () => repo.ping() });
}
