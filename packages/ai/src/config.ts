import { z } from 'zod';

/**
 * LLM settings, for services to spread into their env schema. No `LLM_BASE_URL` means no model is
 * configured: `createLlm` returns null and callers take their no-model path.
 */
export const llmEnvShape = {
  /** An OpenAI-compatible API root, e.g. `https://api.openai.com/v1` or the fake's `http://127.0.0.1:8091/v1`. */
  LLM_BASE_URL: z.url().optional(),
  LLM_API_KEY: z.string().min(1).optional(),
  /** Required when LLM_BASE_URL is set (createLlm says so). */
  LLM_PRIMARY_MODEL: z.string().min(1).optional(),
  /** Tried when the primary fails, times out or answers outside the schema; without it the primary is the only try. */
  LLM_FALLBACK_MODEL: z.string().min(1).optional(),
  /** Bounds each model's turn (its request and retries). */
  LLM_TIMEOUT_MS: z.coerce.number().int().min(1).default(30_000),
  /** Retries of the same model on retryable HTTP errors (429, 5xx) before moving to the next. */
  LLM_MAX_RETRIES: z.coerce.number().int().min(0).max(5).default(1),
} as const;

export const llmEnvSchema = z.object(llmEnvShape);
export type LlmConfig = z.infer<typeof llmEnvSchema>;
