import type { OutboxRelay } from '@vrs/bus';
import type { Logger } from '@vrs/kit';
import type { PlanCatalogue } from '@vrs/contracts';
import { planCatalogueOf, type planEnvShape } from './config';
import type { BillingRepo } from './repo';

export interface BillingModuleConfig {
  /** Credits every new account receives, unless `accounts.create` is given `initialCredits`. */
  startingCredits: number;
  /** How long a reservation holds its credits before the sweeper returns them. */
  reservationTtlMs: number;
  /** Runs both sweepers: expired reservations and ended billing periods. */
  sweepIntervalMs: number;
  /** The plans with this deployment's rate limits; the built-in catalogue when left out (tests). */
  plans?: PlanCatalogue;
}

/** BillingModuleConfig from the environment (the service process and the gateway's host share it). */
export function billingModuleConfigOf(
  env: {
    BILLING_STARTING_CREDITS: number;
    BILLING_RESERVATION_TTL_MS: number;
    BILLING_SWEEP_INTERVAL_MS: number;
  } & { [K in keyof typeof planEnvShape]: number },
): BillingModuleConfig {
  return {
    startingCredits: env.BILLING_STARTING_CREDITS,
    reservationTtlMs: env.BILLING_RESERVATION_TTL_MS,
    sweepIntervalMs: env.BILLING_SWEEP_INTERVAL_MS,
    plans: planCatalogueOf(env),
  };
}

/** What every billing procedure is built with. */
export interface BillingDeps {
  repo: BillingRepo;
  config: BillingModuleConfig;
  /** `config.plans`, or the built-in catalogue. */
  plans: PlanCatalogue;
  logger: Logger;
  /** Told after a write that recorded an event (an account's deletion), so it is published at once. */
  outbox: Pick<OutboxRelay, 'notify'>;
}
