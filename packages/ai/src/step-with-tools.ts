import { performance } from 'node:perf_hooks';
import { generateText, jsonSchema, type ModelMessage, tool } from 'ai';
import { AppError, type Logger } from '@vrs/kit';
import { describeAttemptFailure } from './attempt-failure';
import type { LlmConfig } from './config';
import type { LlmAttempt, LlmUsage } from './create-llm';

/** A tool the model may ask for: name, what it does, and the JSON Schema of its arguments. */
export interface StepTool {
  description: string;
  parameters: Record<string, unknown>;
}

export interface StepToolCall {
  /** The model's id for the call; a tool result answers it. */
  id: string;
  name: string;
  /** The arguments as the model wrote them, unvalidated: the caller checks them (a bad one is a tool error). */
  input: unknown;
}

/** The conversation of a tool loop, provider-neutral so callers can persist and replay it. */
export type StepMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; text: string; toolCalls: StepToolCall[] }
  | { role: 'tool'; results: Array<{ toolCallId: string; toolName: string; output: unknown; isError: boolean }> };

export interface StepRequest {
  system: string;
  messages: readonly StepMessage[];
  tools: Record<string, StepTool>;
  signal?: AbortSignal;
}

export interface StepResult {
  /** The model's text (its answer when it asked for no tool). */
  text: string;
  toolCalls: StepToolCall[];
  /** The model that answered: the primary, or the fallback when the primary failed. */
  model: string;
  usage: LlmUsage;
  attempts: LlmAttempt[];
}

function toModelMessages(messages: readonly StepMessage[]): ModelMessage[] {
  return messages.map((message): ModelMessage => {
    if (message.role === 'user') return { role: 'user', content: message.content };
    if (message.role === 'assistant') {
      return {
        role: 'assistant',
        content: [
          ...(message.text ? [{ type: 'text' as const, text: message.text }] : []),
          ...message.toolCalls.map((call) => ({ type: 'tool-call' as const, toolCallId: call.id, toolName: call.name, input: call.input })),
        ],
      };
    }
    return {
      role: 'tool',
      content: message.results.map((result) => ({
        type: 'tool-result' as const,
        toolCallId: result.toolCallId,
        toolName: result.toolName,
        output: result.isError
          ? { type: 'error-json' as const, value: result.output as never }
          : { type: 'json' as const, value: result.output as never },
      })),
    };
  });
}

/**
 * One model step of a tool loop: the conversation so far in, the model's text and the tool calls it
 * asks for out, nothing executed (the tools have no `execute`, so the SDK stops after this one step
 * and the caller persists the step before running the calls). The primary answers, or the fallback
 * when the primary errors or times out (ADR 0009); both failing is `AI_UNAVAILABLE`.
 */
export function createToolStep(
  config: LlmConfig,
  provider: { chatModel(model: string): Parameters<typeof generateText>[0]['model'] },
  models: readonly string[],
  logger: Logger,
) {
  return async function step(request: StepRequest): Promise<StepResult> {
    const tools = Object.fromEntries(
      Object.entries(request.tools).map(([name, spec]) => [
        name,
        // jsonSchema without a validator: the SDK passes the arguments through as written; the caller validates them.
        tool({ description: spec.description, inputSchema: jsonSchema(spec.parameters as never) }),
      ]),
    );
    const messages = toModelMessages(request.messages);
    const attempts: LlmAttempt[] = [];
    for (const model of models) {
      const timeout = AbortSignal.timeout(config.LLM_TIMEOUT_MS);
      const started = performance.now();
      try {
        const result = await generateText({
          model: provider.chatModel(model),
          system: request.system,
          messages,
          tools,
          maxRetries: config.LLM_MAX_RETRIES,
          abortSignal: request.signal ? AbortSignal.any([request.signal, timeout]) : timeout,
        });
        const toolCalls = result.toolCalls.map((call) => ({ id: call.toolCallId, name: call.toolName, input: call.input }));
        const latencyMs = Math.round(performance.now() - started);
        if (toolCalls.length === 0 && !result.text.trim()) {
          attempts.push({ model, outcome: 'invalid-output', latencyMs, reason: 'neither text nor a tool call' });
          logger.warn({ model, latencyMs, outcome: 'invalid-output' }, 'llm step answered nothing');
          continue;
        }
        attempts.push({ model, outcome: 'ok', latencyMs });
        const { inputTokens, outputTokens, totalTokens } = result.usage;
        logger.info({ model, latencyMs, outcome: 'ok', toolCalls: toolCalls.length, inputTokens, outputTokens }, 'llm step');
        return { text: result.text, toolCalls, model, usage: { inputTokens, outputTokens, totalTokens }, attempts };
      } catch (error) {
        if (request.signal?.aborted) throw request.signal.reason;
        const latencyMs = Math.round(performance.now() - started);
        const failure = describeAttemptFailure(error, timeout.aborted, config.LLM_TIMEOUT_MS);
        attempts.push({ model, latencyMs, ...failure });
        logger.warn(
          { model, latencyMs, ...failure, error: { name: (error as Error).name, message: String((error as Error).message).slice(0, 500) } },
          'llm step failed',
        );
      }
    }
    throw new AppError('AI_UNAVAILABLE', `No model answered the step (tried ${models.join(', ')}).`, {
      attempts: attempts.map(({ model, outcome, reason }) => ({ model, outcome, reason })),
    });
  };
}
