import type { z } from 'zod';
import { ConfigError, createLogger, type Logger, type TraceContext } from '@vrs/kit';
import { lazyChatModels, providerName } from './ai-sdk';
import type { FailedOutcome } from './attempt-failure';
import type { LlmConfig } from './config';
import { tryModelsInOrder } from './try-models';
import { createToolStep, type StepRequest, type StepResult } from './step-with-tools';

export interface GenerateObjectRequest<T> {
  /** What the answer must be; the model is sent its JSON Schema and the answer is validated with it. */
  schema: z.ZodType<T>;
  system: string;
  prompt: string;
  /** Images the model reads beside the prompt (storyboard sheets, as bytes or base64): sent as image parts of the user message. */
  images?: readonly { data: Uint8Array | string; mediaType: string }[];
  /** The caller giving up (a client gone): stops at once, without trying the fallback. */
  signal?: AbortSignal;
  /** The request's trace context, with tracing on: each attempt's span goes under it (ADR 0117). */
  trace?: TraceContext;
}

export interface LlmAttempt {
  model: string;
  outcome: 'ok' | FailedOutcome;
  latencyMs: number;
  /** Why it failed; absent when it succeeded. */
  reason?: string;
  /** The HTTP status the model's endpoint answered with, when it answered with an error. */
  statusCode?: number;
}

export interface LlmUsage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
}

export interface GenerateObjectResult<T> {
  object: T;
  /** The model that produced `object`: the primary, or the fallback when the primary failed. */
  model: string;
  usage: LlmUsage;
  /** Why the model stopped (`stop`, `length`, …), as the SDK reports it. */
  finishReason: string;
  /** Every model tried, in order; the last one succeeded. */
  attempts: LlmAttempt[];
}

export interface Llm {
  /** The models tried, in order: the primary, then the fallback if configured. */
  readonly models: readonly string[];
  generateObject<T>(request: GenerateObjectRequest<T>): Promise<GenerateObjectResult<T>>;
  /** One step of a tool loop: the model's text and requested tool calls, none executed (primary, then fallback). */
  step(request: StepRequest): Promise<StepResult>;
}

/**
 * Model access for every service: the primary model, then the fallback when the primary errors,
 * times out or answers outside the schema. Returns null when no model is configured.
 */
export function createLlm(config: LlmConfig, options: { logger?: Logger } = {}): Llm | null {
  if (!config.LLM_BASE_URL) return null;
  if (!config.LLM_PRIMARY_MODEL) throw new ConfigError(['LLM_PRIMARY_MODEL: required when LLM_BASE_URL is set']);
  const logger = options.logger ?? createLogger('llm');
  const chatModels = lazyChatModels(config.LLM_BASE_URL, config.LLM_API_KEY);
  const models = [config.LLM_PRIMARY_MODEL, ...(config.LLM_FALLBACK_MODEL ? [config.LLM_FALLBACK_MODEL] : [])];

  async function generateObject<T>(request: GenerateObjectRequest<T>): Promise<GenerateObjectResult<T>> {
    const { sdk, models: provider } = await chatModels();
    return tryModelsInOrder<Omit<GenerateObjectResult<T>, 'model' | 'attempts'>>({
      sdk,
      config,
      models,
      logger,
      signal: request.signal,
      trace: request.trace,
      what: 'llm attempt',
      unavailable: 'No model produced a valid answer',
      turn: async (model, abortSignal) => {
        const result = await sdk.generateText({
          model: provider.chatModel(model),
          system: request.system,
          ...(request.images?.length
            ? {
                messages: [
                  {
                    role: 'user' as const,
                    content: [
                      { type: 'text' as const, text: request.prompt },
                      ...request.images.map((image) => ({ type: 'image' as const, image: image.data, mediaType: image.mediaType })),
                    ],
                  },
                ],
              }
            : { prompt: request.prompt }),
          output: sdk.Output.object({ schema: request.schema }),
          maxRetries: config.LLM_MAX_RETRIES,
          abortSignal,
          // Not strict: strict mode makes OpenAI refuse any schema with optional fields, and the answer is validated with zod anyway.
          providerOptions: { [providerName]: { strictJsonSchema: false } },
        });
        // Read before counting the attempt a success: the getter throws when the model produced no output.
        const object = result.output;
        const { inputTokens, outputTokens, totalTokens } = result.usage;
        return {
          result: { object, usage: { inputTokens, outputTokens, totalTokens }, finishReason: result.finishReason },
          log: { inputTokens, outputTokens },
        };
      },
    });
  }

  return { models, generateObject, step: createToolStep(config, chatModels, models, logger) };
}
