import { z } from 'zod';
import { llmEnvShape } from '@vrs/ai';
import { baseEnvShape } from '@vrs/kit';

/** The research process: the shared settings plus the model that writes answers, reports and comparison summaries. */
export const researchEnvSchema = z.object({ ...baseEnvShape, ...llmEnvShape });
export type ResearchConfig = z.infer<typeof researchEnvSchema>;
