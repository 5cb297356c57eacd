import { performance } from 'node:perf_hooks';
import { AppError, inSpan, observeUpstreamCall, type Logger, type TraceContext, type UpstreamOutcome } from '@vrs/kit';
import type { AiSdk } from './ai-sdk';
import { describeAttemptFailure, type AttemptFailure } from './attempt-failure';
import type { LlmConfig } from './config';
import type { LlmAttempt } from './create-llm';

/** What one model's turn gave: a result (with figures for the log), or an answer that cannot be used. */
export type ModelTurn<R> = { result: R; log?: Record<string, unknown> } | { invalid: string };

export interface TryModelsOptions<R> {
  /** The loaded AI SDK: its error classes tell why a turn failed. */
  sdk: AiSdk;
  config: LlmConfig;
  models: readonly string[];
  logger: Logger;
  /** The caller's abort: it stops at once, without trying the next model. */
  signal?: AbortSignal;
  /** The request's trace context: each attempt is a client span under it (none without it). */
  trace?: TraceContext;
  /** The log line of an attempt (`llm attempt`, `llm step`). */
  what: string;
  /** The message of the AI_UNAVAILABLE error when no model gave a usable answer. */
  unavailable: string;
  turn: (model: string, abortSignal: AbortSignal) => Promise<ModelTurn<R>>;
}

/** A failed attempt as an upstream outcome: an error answer by its status class, no answer at all as 5xx. */
function llmOutcomeOf(failure: AttemptFailure): UpstreamOutcome {
  if (failure.outcome === 'timeout') return 'timeout';
  if (failure.outcome === 'invalid-output') return 'invalid_output';
  return failure.statusCode !== undefined && failure.statusCode < 500 ? '4xx' : '5xx';
}

/**
 * The fallback policy of ADR 0009, once for every kind of call: the models in order (primary, then
 * fallback), each with its own `LLM_TIMEOUT_MS`; an error, a timeout or an unusable answer moves on
 * to the next; each attempt is logged and listed. None answering is `AI_UNAVAILABLE`, whose details
 * carry the attempts' short reasons only (the full errors go to the log).
 */
export async function tryModelsInOrder<R>(options: TryModelsOptions<R>): Promise<R & { model: string; attempts: LlmAttempt[] }> {
  const { sdk, config, models, logger, signal, what } = options;
  const attempts: LlmAttempt[] = [];
  // The metrics' operation: `llm attempt` is a structured answer, `llm step` an agent's step with tools.
  const operation = what === 'llm step' ? 'step' : 'generate';
  for (const model of models) {
    const timeout = AbortSignal.timeout(config.LLM_TIMEOUT_MS);
    const started = performance.now();
    try {
      const abortSignal = signal ? AbortSignal.any([signal, timeout]) : timeout;
      const turn = options.trace
        ? await inSpan(`llm ${operation}`, { kind: 'client', parent: options.trace, attributes: { 'gen_ai.request.model': model } }, () =>
            options.turn(model, abortSignal),
          )
        : await options.turn(model, abortSignal);
      const latencyMs = Math.round(performance.now() - started);
      if ('invalid' in turn) {
        observeUpstreamCall('llm', operation, 'invalid_output', latencyMs / 1000);
        attempts.push({ model, outcome: 'invalid-output', latencyMs, reason: turn.invalid });
        logger.warn({ model, latencyMs, outcome: 'invalid-output', reason: turn.invalid }, `${what} failed`);
        continue;
      }
      observeUpstreamCall('llm', operation, 'ok', latencyMs / 1000);
      attempts.push({ model, outcome: 'ok', latencyMs });
      logger.info({ model, latencyMs, outcome: 'ok', ...turn.log }, what);
      return { ...turn.result, model, attempts };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const latencyMs = Math.round(performance.now() - started);
      const failure = describeAttemptFailure(sdk, error, timeout.aborted, config.LLM_TIMEOUT_MS);
      attempts.push({ model, latencyMs, ...failure });
      observeUpstreamCall('llm', operation, llmOutcomeOf(failure), latencyMs / 1000);
      // Name and message only: the SDK's errors carry the whole response, prompt text included.
      logger.warn(
        { model, latencyMs, ...failure, error: { name: (error as Error).name, message: String((error as Error).message).slice(0, 500) } },
        `${what} failed`,
      );
    }
  }
  throw new AppError('AI_UNAVAILABLE', `${options.unavailable} (tried ${models.join(', ')}).`, {
    attempts: attempts.map(({ model, outcome, reason, statusCode }) => ({
      model,
      outcome,
      reason,
      ...(statusCode === undefined ? {} : { statusCode }),
    })),
  });
}
