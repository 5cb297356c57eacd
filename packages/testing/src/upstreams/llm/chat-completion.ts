import { decideAgentStep } from './agent-policy';
import { readPromptFacts, type PromptFacts } from './prompt-facts';
import { fillSchema, type JsonSchema } from './schema-filler';

/** The part of an OpenAI chat-completions request the fake reads (what `@ai-sdk/openai-compatible` sends). */
export interface ChatRequest {
  model: string;
  messages: Array<{
    role: string;
    content?: string | Array<{ type: string; text?: string; image_url?: { url: string } }> | null;
    tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
    tool_call_id?: string;
  }>;
  response_format?:
    | { type: 'text' }
    | { type: 'json_object' }
    | { type: 'json_schema'; json_schema: { name?: string; schema: JsonSchema } };
  tools?: Array<{ type: 'function'; function: { name: string; parameters?: JsonSchema } }>;
  tool_choice?: 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };
  stream?: boolean;
}

/**
 * How the request asked to be answered: structured content, a forced tool call, a step of a tool
 * loop (tools offered, the model chooses: `agent-policy.ts`), or plain text.
 */
export type AnswerMode = 'json_schema' | 'json_object' | 'tool' | 'agent' | 'text';

/** Behaviours that still answer 200; `fail` and `timeout` never reach this module. */
export type AnsweringBehaviour = 'ok' | 'cite-unknown' | 'invalid-json' | 'wrong-shape' | 'tool-error' | 'unground' | 'unground-once';

// A repair request names the grounding issues of the answer it rejected (`@vrs/ai` checkQuotedFindings codes).
const repairFeedback = /\b(QUOTE_NOT_IN_WINDOW|WINDOW_OUT_OF_RANGE|ENTITY_NOT_SUPPORTED)\b/;

// Without a schema (json_object mode) the fake answers in this shape.
const freeJsonSchema: JsonSchema = {
  type: 'object',
  properties: { answer: { type: 'string' }, citedIds: { type: 'array', items: { type: 'string' } } },
};

export function textOf(request: ChatRequest, role: string): string {
  return request.messages
    .filter((message) => message.role === role)
    .map(({ content }) =>
      typeof content === 'string'
        ? content
        : (content ?? [])
            .filter((part) => part.type === 'text')
            .map((part) => part.text ?? '')
            .join('\n'),
    )
    .join('\n');
}

/** An image the request carried (an `image_url` part), as tests check it: its type and decoded size. */
export interface ReceivedImage {
  mediaType: string;
  bytes: number;
  /** The decoded image starts like a WebP file (`RIFF….WEBP`). */
  webp: boolean;
}

/** The images of the user messages; a URL that is not a base64 data URL counts with `mediaType: 'url'`. */
export function imagesOf(request: ChatRequest): ReceivedImage[] {
  return request.messages
    .filter((message) => message.role === 'user' && Array.isArray(message.content))
    .flatMap((message) =>
      (message.content as Array<{ type: string; image_url?: { url: string } }>).filter((part) => part.type === 'image_url'),
    )
    .map((part) => {
      const match = /^data:([^;,]+);base64,(.*)$/s.exec(part.image_url?.url ?? '');
      if (!match) return { mediaType: 'url', bytes: 0, webp: false };
      const data = Buffer.from(match[2] as string, 'base64');
      return {
        mediaType: match[1] as string,
        bytes: data.byteLength,
        webp: data.subarray(0, 4).toString('latin1') === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP',
      };
    });
}

export function answerModeOf(request: ChatRequest): AnswerMode {
  if (request.tools?.length && (request.tool_choice === undefined || request.tool_choice === 'auto')) return 'agent';
  const toolResultsGiven = request.messages.some((message) => message.role === 'tool');
  if (request.tools?.length && request.tool_choice !== 'none' && !toolResultsGiven) return 'tool';
  const format = request.response_format?.type;
  return format === 'json_schema' || format === 'json_object' ? format : 'text';
}

/** A `chat.completion` body answering `request`, its content derived from the prompt. */
export function chatCompletion(request: ChatRequest, behaviour: AnsweringBehaviour, sequence: number) {
  const prompt = `${textOf(request, 'system')}\n${textOf(request, 'user')}`;
  const facts = readPromptFacts(prompt);
  const mode = answerModeOf(request);
  const unground = behaviour === 'unground' || (behaviour === 'unground-once' && !repairFeedback.test(prompt));
  const payload = (schema: JsonSchema) =>
    render(fillSchema(schema, facts, { citeUnknown: behaviour === 'cite-unknown', unground }), behaviour);
  let message: Record<string, unknown>;
  let finishReason: string;
  if (mode === 'agent') {
    const decision = decideAgentStep(request, {
      badFirstCall: behaviour === 'tool-error',
      citeUnknown: behaviour === 'cite-unknown',
      sequence,
    });
    if (decision.kind === 'tools') {
      message = {
        role: 'assistant',
        content: null,
        tool_calls: decision.calls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: render(call.arguments, behaviour) },
        })),
      };
      finishReason = 'tool_calls';
    } else {
      message = { role: 'assistant', content: decision.text };
      finishReason = 'stop';
    }
  } else if (mode === 'tool') {
    const tool = chosenTool(request);
    message = {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: `call_fake_${sequence}`,
          type: 'function',
          function: { name: tool.name, arguments: payload(tool.parameters ?? freeJsonSchema) },
        },
      ],
    };
    finishReason = 'tool_calls';
  } else {
    const content =
      mode === 'json_schema' && request.response_format?.type === 'json_schema'
        ? payload(request.response_format.json_schema.schema)
        : mode === 'json_object'
          ? payload(freeJsonSchema)
          : proseAnswer(facts, behaviour);
    message = { role: 'assistant', content };
    finishReason = 'stop';
  }
  const promptTokens = Math.ceil(JSON.stringify(request.messages).length / 4);
  const completionTokens = Math.ceil(JSON.stringify(message).length / 4);
  return {
    id: `chatcmpl-fake-${sequence}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    choices: [{ index: 0, message, finish_reason: finishReason }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  };
}

function chosenTool(request: ChatRequest) {
  const tools = request.tools ?? [];
  const named = typeof request.tool_choice === 'object' ? request.tool_choice.function.name : undefined;
  const tool = tools.find((candidate) => candidate.function.name === named) ?? tools[0];
  if (tool === undefined) throw new Error('the fake LLM was asked for a tool call without tools');
  return tool.function;
}

function render(value: unknown, behaviour: AnsweringBehaviour): string {
  if (behaviour === 'wrong-shape') return JSON.stringify({ unexpected: true });
  const json = JSON.stringify(value);
  // Cut mid-way, like a model that stopped early: not parseable by any JSON parser.
  return behaviour === 'invalid-json' ? json.slice(0, Math.ceil(json.length / 2)) : json;
}

/** Plain text: an answer citing the prompt's `[n]` entries (`invalid-json` and `wrong-shape` have nothing to break here). */
function proseAnswer(facts: PromptFacts, behaviour: AnsweringBehaviour): string {
  const filled = fillSchema({ type: 'object', properties: { answer: { type: 'string' } } }, facts, {
    citeUnknown: behaviour === 'cite-unknown',
  });
  return (filled as { answer: string }).answer;
}
