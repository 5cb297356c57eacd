import { healthProcedure } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';

/** Readiness of the service: billing consumes no events, so its store is its only dependency. */
export function checkHealth({ repo }: BillingDeps) {
  return healthProcedure({ store: () => repo.ping() });
}
