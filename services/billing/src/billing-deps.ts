import type { OutboxRelay } from '@vrs/bus';
import type { baseEnvShape, Logger } from '@vrs/kit';
import type { PlanCatalogue } from '@vrs/contracts';
import { planCatalogueOf, type BillingConfig } from './config';
import { currentScryptParams } from './identity/passwords';
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
  /** Email sign-in (ADR 0034); defaults in `identityPolicyOf`. */
  emailVerificationTtlMs?: number;
  passwordResetTtlMs?: number;
  passwordScryptLogN?: number;
}

/** The sign-in settings, with their defaults. */
export function identityPolicyOf(config: BillingModuleConfig) {
  return {
    emailVerificationTtlMs: config.emailVerificationTtlMs ?? 24 * 3_600_000,
    passwordResetTtlMs: config.passwordResetTtlMs ?? 3_600_000,
    scrypt: { ...currentScryptParams, logN: config.passwordScryptLogN ?? currentScryptParams.logN },
  };
}

/** BillingModuleConfig from the environment (the service process and the gateway's host share it). */
export function billingModuleConfigOf(env: Omit<BillingConfig, keyof typeof baseEnvShape>): BillingModuleConfig {
  return {
    emailVerificationTtlMs: env.EMAIL_VERIFICATION_TTL_MS,
    passwordResetTtlMs: env.PASSWORD_RESET_TTL_MS,
    passwordScryptLogN: env.PASSWORD_SCRYPT_LOG_N,
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
