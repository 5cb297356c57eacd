import { z } from 'zod';
import { baseEnvShape, booleanFromEnv, ConfigError } from '@vrs/kit';

/**
 * Settings of the monitoring service, read by its process and by the gateway when it hosts it.
 * `MONITORING_CLOCK_CONTROL` turns on the test-only clock and scheduler procedures; refused in production.
 */
export const monitoringEnvShape = {
  MONITORING_CLOCK_CONTROL: booleanFromEnv.default(false),
  /** How often the scheduler looks for due monitors; 0 turns the loop off (checks run only when forced). */
  MONITORING_TICK_MS: z.coerce.number().int().min(0).default(10_000),
  /** How long a claimed check holds its monitor; a crashed checker's monitor is taken again after it. */
  MONITORING_LEASE_MS: z.coerce.number().int().min(1_000).default(300_000),
  /** Checks in flight per process. */
  MONITORING_CHECK_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
  /** The longest wait after repeated upstream failures (the interval doubles up to it, or to the interval if longer). */
  MONITORING_BACKOFF_CAP_MINUTES: z.coerce.number().int().min(15).default(1_440),
  /** Accept webhook URLs on loopback, private and link-local addresses (local development and tests). */
  WEBHOOKS_ALLOW_PRIVATE: booleanFromEnv.default(false),
  /** Attempts per delivery before it is given up (retries wait 1, 2, 4, … minutes). */
  WEBHOOKS_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(6),
  /** Failed attempts in a row after which a webhook is disabled (its owner is notified). */
  WEBHOOKS_DISABLE_AFTER_FAILURES: z.coerce.number().int().min(1).default(20),
} as const;

export const monitoringEnvSchema = z.object({ ...baseEnvShape, ...monitoringEnvShape });
export type MonitoringConfig = z.infer<typeof monitoringEnvSchema>;

type MonitoringEnv = { NODE_ENV: string } & { [K in keyof typeof monitoringEnvShape]: z.infer<(typeof monitoringEnvShape)[K]> };

/** What the module needs of the environment (its own process's config, or the gateway's). */
export function monitoringModuleConfigOf(config: MonitoringEnv) {
  // The clock control must never be reachable in production, whoever hosts the service.
  if (config.MONITORING_CLOCK_CONTROL && config.NODE_ENV === 'production') {
    throw new ConfigError([
      'MONITORING_CLOCK_CONTROL: must not be on when NODE_ENV=production (it moves the clock checks are scheduled by)',
    ]);
  }
  return {
    clockControl: config.MONITORING_CLOCK_CONTROL,
    tickMs: config.MONITORING_TICK_MS,
    leaseMs: config.MONITORING_LEASE_MS,
    concurrency: config.MONITORING_CHECK_CONCURRENCY,
    backoffCapMinutes: config.MONITORING_BACKOFF_CAP_MINUTES,
    webhooks: {
      allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE,
      maxAttempts: config.WEBHOOKS_MAX_ATTEMPTS,
      disableAfterFailures: config.WEBHOOKS_DISABLE_AFTER_FAILURES,
      /** The first retry's wait; each further retry doubles it. */
      retryBaseMs: 60_000,
      timeoutMs: 10_000,
    },
  };
}
