import type { OutboxRelay } from '@vrs/bus';
import type { Logger } from '@vrs/kit';
import type { BillingRepo } from './repo';

export interface BillingModuleConfig {
  /** Credits every new account receives, unless `accounts.create` is given `initialCredits`. */
  startingCredits: number;
  /** How long a reservation holds its credits before the sweeper returns them. */
  reservationTtlMs: number;
  sweepIntervalMs: number;
}

/** BillingModuleConfig from the environment (the service process and the gateway's host share it). */
export function billingModuleConfigOf(env: {
  BILLING_STARTING_CREDITS: number;
  BILLING_RESERVATION_TTL_MS: number;
  BILLING_SWEEP_INTERVAL_MS: number;
}): BillingModuleConfig {
  return {
    startingCredits: env.BILLING_STARTING_CREDITS,
    reservationTtlMs: env.BILLING_RESERVATION_TTL_MS,
    sweepIntervalMs: env.BILLING_SWEEP_INTERVAL_MS,
  };
}

/** What every billing procedure is built with. */
export interface BillingDeps {
  repo: BillingRepo;
  config: BillingModuleConfig;
  logger: Logger;
  /** Told after a write that recorded an event (an account's deletion), so it is published at once. */
  outbox: Pick<OutboxRelay, 'notify'>;
}
