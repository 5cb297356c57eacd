import type { ModelMessage } from 'ai';
import type { Logger, TraceContext } from '@vrs/kit';
import type { AiSdk, ChatModels } from './ai-sdk';
import type { LlmConfig } from './config';
import type { LlmAttempt, LlmUsage } from './create-llm';
import { tryModelsInOrder } from './try-models';

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
  /** The run's trace context, with tracing on: each attempt's span goes under it (ADR 0117). */
  trace?: TraceContext;
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
        output: { type: result.isError ? ('error-json' as const) : ('json' as const), value: result.output as never },
      })),
    };
  });
}

/**
 * One model step of a tool loop: the conversation so far in, the model's text and the tool calls it
 * asks for out, nothing executed (the tools have no `execute`, so the SDK stops after this one step
 * and the caller persists the step before running the calls). Models are tried as `tryModelsInOrder` says.
 */
export function createToolStep(
  config: LlmConfig,
  chatModels: () => Promise<{ sdk: AiSdk; models: ChatModels }>,
  models: readonly string[],
  logger: Logger,
) {
  return async function step(request: StepRequest): Promise<StepResult> {
    const { sdk, models: provider } = await chatModels();
    const { tool, jsonSchema } = sdk;
    const tools = Object.fromEntries(
      Object.entries(request.tools).map(([name, spec]) => [
        name,
        // jsonSchema without a validator: the SDK passes the arguments through as written; the caller validates them.
        tool({ description: spec.description, inputSchema: jsonSchema(spec.parameters as never) }),
      ]),
    );
    const messages = toModelMessages(request.messages);
    return tryModelsInOrder<Omit<StepResult, 'model' | 'attempts'>>({
      sdk,
      config,
      models,
      logger,
      signal: request.signal,
      trace: request.trace,
      what: 'llm step',
      unavailable: 'No model answered the step',
      turn: async (model, abortSignal) => {
        const answer = await sdk.generateText({
          model: provider.chatModel(model),
          system: request.system,
          messages,
          tools,
          maxRetries: config.LLM_MAX_RETRIES,
          abortSignal,
        });
        const toolCalls = answer.toolCalls.map((call) => ({ id: call.toolCallId, name: call.toolName, input: call.input }));
        if (toolCalls.length === 0 && !answer.text.trim()) return { invalid: 'neither text nor a tool call' };
        const { inputTokens, outputTokens, totalTokens } = answer.usage;
        return {
          result: { text: answer.text, toolCalls, usage: { inputTokens, outputTokens, totalTokens } },
          log: { toolCalls: toolCalls.length, inputTokens, outputTokens },
        };
      },
    });
  };
}
