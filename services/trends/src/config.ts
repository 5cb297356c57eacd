import { z } from 'zod';
import { llmEnvShape } from '@vrs/ai/config';
import { baseEnvShape, booleanFromEnv, ConfigError } from '@vrs/kit';
import { snapshotLookbackDays } from './repo/snapshots-repo';
import type { TrendsModuleConfig } from './trends-deps';

/**
 * Settings of the trends service, read by its process and by the gateway when it hosts the service.
 * `TRENDS_CLOCK_CONTROL` turns on the test-only clock procedure; it is refused in production.
 */
export const trendsEnvShape = {
  TRENDS_CLOCK_CONTROL: booleanFromEnv.default(false),
  /** Videos enriched (and channels read) through the provider at once, per report. */
  TRENDS_ENRICH_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(30),
  /** Days a metric snapshot is kept; never less than the lookback reports read (30 days). */
  TRENDS_SNAPSHOT_RETENTION_DAYS: z.coerce.number().int().min(snapshotLookbackDays).default(snapshotLookbackDays),
  /** How often trends deletes expired snapshots (also once at start); an hour by default. */
  TRENDS_RETENTION_SWEEP_INTERVAL_MS: z.coerce.number().int().min(10).default(3_600_000),
} as const;

export const trendsEnvSchema = z.object({ ...baseEnvShape, ...llmEnvShape, ...trendsEnvShape });
export type TrendsConfig = z.infer<typeof trendsEnvSchema>;

/** The clock control must never be reachable in production, whoever hosts the service. */
export function clockControlOf(config: { NODE_ENV: string; TRENDS_CLOCK_CONTROL: boolean }): boolean {
  if (config.TRENDS_CLOCK_CONTROL && config.NODE_ENV === 'production') {
    throw new ConfigError(['TRENDS_CLOCK_CONTROL: must not be on when NODE_ENV=production (it moves the clock reports are computed with)']);
  }
  return config.TRENDS_CLOCK_CONTROL;
}

/** The module's settings, as its own process and the gateway hosting it both read them. */
export function trendsModuleConfigOf(config: { NODE_ENV: string } & z.infer<z.ZodObject<typeof trendsEnvShape>>): TrendsModuleConfig {
  return {
    clockControl: clockControlOf(config),
    enrichConcurrency: config.TRENDS_ENRICH_CONCURRENCY,
    snapshotRetentionDays: config.TRENDS_SNAPSHOT_RETENTION_DAYS,
    retentionSweepIntervalMs: config.TRENDS_RETENTION_SWEEP_INTERVAL_MS,
  };
}
