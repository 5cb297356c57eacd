import type { Logger } from '@vrs/kit';
import { currentScryptParams } from './identity/passwords';
import type { BillingRepo } from './repo';

export interface BillingModuleConfig {
  /** Credits every new account receives, unless `accounts.create` is given `initialCredits`. */
  startingCredits: number;
  /** How long a reservation holds its credits before the sweeper returns them. */
  reservationTtlMs: number;
  sweepIntervalMs: number;
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
export function billingModuleConfigOf(env: {
  BILLING_STARTING_CREDITS: number;
  BILLING_RESERVATION_TTL_MS: number;
  BILLING_SWEEP_INTERVAL_MS: number;
  EMAIL_VERIFICATION_TTL_MS: number;
  PASSWORD_RESET_TTL_MS: number;
  PASSWORD_SCRYPT_LOG_N: number;
}): BillingModuleConfig {
  return {
    emailVerificationTtlMs: env.EMAIL_VERIFICATION_TTL_MS,
    passwordResetTtlMs: env.PASSWORD_RESET_TTL_MS,
    passwordScryptLogN: env.PASSWORD_SCRYPT_LOG_N,
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
}
