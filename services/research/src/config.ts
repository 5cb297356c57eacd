import { z } from 'zod';
import { llmEnvShape } from '@vrs/ai/config';
import { baseEnvShape } from '@vrs/kit';

/** Where project search indexes live (ADR 0024); read by the gateway too when it hosts research. */
export const searchEnvShape = {
  /** `embedded`: SQLite FTS5 under DATA_DIR/research-search; `mongo`: Mongo Search (`$search`) in MONGODB_URL's research database. */
  SEARCH_ENGINE: z.enum(['embedded', 'mongo']).default('embedded'),
};

/** How much import work one replica takes on (ADR 0038); read by the gateway too when it hosts research. */
export const researchImportEnvShape = {
  /** Import jobs one replica runs at once (the research-importer subscription's concurrency); replicas add theirs. */
  RESEARCH_IMPORT_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** Videos of one import job imported at once. */
  RESEARCH_IMPORT_VIDEO_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
};

const researchImportEnvSchema = z.object(researchImportEnvShape);

export function researchImportConfigOf(env: z.infer<typeof researchImportEnvSchema>) {
  return { jobsAtOnce: env.RESEARCH_IMPORT_CONCURRENCY, videosAtOnce: env.RESEARCH_IMPORT_VIDEO_CONCURRENCY };
}
export type ResearchImportConfig = ReturnType<typeof researchImportConfigOf>;

export const defaultResearchImports: ResearchImportConfig = researchImportConfigOf(researchImportEnvSchema.parse({}));

const msSetting = (min: number, fallback: number) => z.coerce.number().int().min(min).default(fallback);

/** How long research keeps what it may forget (ADR 0029); read by the gateway too when it hosts research. */
export const researchRetentionEnvShape = {
  /** How long an Idempotency-Key answers with its first response; the record is deleted after it. */
  RESEARCH_IDEMPOTENCY_TTL_MS: msSetting(1, 24 * 60 * 60_000),
  /** How long an export's file can be downloaded once written; then it is deleted (the record stays). */
  RESEARCH_EXPORT_TTL_MS: msSetting(1, 7 * 24 * 60 * 60_000),
  /** How long a published outbox row is kept (for inspecting what was sent) before it is deleted. */
  RESEARCH_OUTBOX_SENT_TTL_MS: msSetting(1, 24 * 60 * 60_000),
  /** How often research deletes expired records (also once at start). */
  RESEARCH_RETENTION_SWEEP_INTERVAL_MS: msSetting(10, 10 * 60_000),
};

const researchRetentionEnvSchema = z.object(researchRetentionEnvShape);

/** ResearchRetentionConfig from the environment (the service process and the gateway's host share it). */
export function researchRetentionConfigOf(env: z.infer<typeof researchRetentionEnvSchema>) {
  return {
    idempotencyTtlMs: env.RESEARCH_IDEMPOTENCY_TTL_MS,
    exportTtlMs: env.RESEARCH_EXPORT_TTL_MS,
    outboxSentTtlMs: env.RESEARCH_OUTBOX_SENT_TTL_MS,
    sweepIntervalMs: env.RESEARCH_RETENTION_SWEEP_INTERVAL_MS,
  };
}

export type ResearchRetentionConfig = ReturnType<typeof researchRetentionConfigOf>;

export const defaultResearchRetention: ResearchRetentionConfig = researchRetentionConfigOf(researchRetentionEnvSchema.parse({}));

/** The research process: the shared settings, the search engine, and the model that writes answers, reports and comparison summaries. */
export const researchEnvSchema = z
  .object({ ...baseEnvShape, ...llmEnvShape, ...searchEnvShape, ...researchRetentionEnvShape, ...researchImportEnvShape })
  .refine((config) => config.SEARCH_ENGINE !== 'mongo' || config.MONGODB_URL !== undefined, {
    path: ['SEARCH_ENGINE'],
    message: 'mongo needs MONGODB_URL',
  });
export type ResearchConfig = z.infer<typeof researchEnvSchema>;
