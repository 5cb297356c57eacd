import { z } from 'zod';
import { llmEnvShape } from '@vrs/ai';
import { baseEnvShape } from '@vrs/kit';

/** Where project search indexes live (ADR 0024); read by the gateway too when it hosts research. */
export const searchEnvShape = {
  /** `embedded`: SQLite FTS5 under DATA_DIR/research-search; `mongo`: Mongo Search (`$search`) in MONGODB_URL's research database. */
  SEARCH_ENGINE: z.enum(['embedded', 'mongo']).default('embedded'),
};

/** The research process: the shared settings, the search engine, and the model that writes answers, reports and comparison summaries. */
export const researchEnvSchema = z
  .object({ ...baseEnvShape, ...llmEnvShape, ...searchEnvShape })
  .refine((config) => config.SEARCH_ENGINE !== 'mongo' || config.MONGODB_URL !== undefined, {
    path: ['SEARCH_ENGINE'],
    message: 'mongo needs MONGODB_URL',
  });
export type ResearchConfig = z.infer<typeof researchEnvSchema>;
