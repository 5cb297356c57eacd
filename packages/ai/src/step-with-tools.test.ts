import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError, createLogger } from '@vrs/kit';
import { startFakeLlm, type FakeLlm } from '@vrs/testing/upstreams/llm/server';
import { llmEnvSchema } from './config';
import { createLlm, type Llm } from './create-llm';
import type { StepMessage, StepTool } from './step-with-tools';

const tools: Record<string, StepTool> = {
  search_videos: { description: 'Search YouTube.', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } },
  get_transcript: {
    description: 'A transcript.',
    parameters: { type: 'object', properties: { videoId: { type: 'string' } }, required: ['videoId'] },
  },
};
const system = 'You research YouTube. Read up to 2 transcripts.';

let fake: FakeLlm;
const logger = createLogger('llm-step-test');
logger.level = 'silent';
const llmOf = (): Llm =>
  createLlm(
    llmEnvSchema.parse({ LLM_BASE_URL: fake.baseUrl, LLM_PRIMARY_MODEL: 'primary', LLM_FALLBACK_MODEL: 'fallback', LLM_MAX_RETRIES: '0' }),
    { logger },
  )!;

beforeAll(async () => {
  fake = await startFakeLlm();
});
beforeEach(() => fake.reset());
afterAll(() => fake.close());

describe('llm.step: one step of a tool loop', () => {
  it('returns the tool calls the model asked for, executes none, and carries the conversation back', async () => {
    const llm = llmOf();
    const messages: StepMessage[] = [{ role: 'user', content: 'How do you pull an espresso shot?' }];
    const first = await llm.step({ system, messages, tools });
    expect(first).toMatchObject({ model: 'primary', toolCalls: [{ name: 'search_videos', input: { q: 'pull espresso shot' } }] });
    messages.push(
      { role: 'assistant', text: first.text, toolCalls: first.toolCalls },
      {
        role: 'tool',
        results: [
          {
            toolCallId: first.toolCalls[0]!.id,
            toolName: 'search_videos',
            output: { videos: [{ videoId: 'aaaaaaaaaa1' }, { videoId: 'bbbbbbbbbb2' }, { videoId: 'ccccccccc3c' }] },
            isError: false,
          },
        ],
      },
    );
    const second = await llm.step({ system, messages, tools });
    expect(second.toolCalls.map((call) => call.input)).toEqual([{ videoId: 'aaaaaaaaaa1' }, { videoId: 'bbbbbbbbbb2' }]);
    messages.push(
      { role: 'assistant', text: second.text, toolCalls: second.toolCalls },
      {
        role: 'tool',
        results: [
          {
            toolCallId: second.toolCalls[0]!.id,
            toolName: 'get_transcript',
            output: { windows: [{ evidenceId: 'ev_1', text: 'Pull the espresso shot for 25 seconds.' }] },
            isError: false,
          },
          { toolCallId: second.toolCalls[1]!.id, toolName: 'get_transcript', output: { error: { code: 'X' } }, isError: true },
        ],
      },
    );
    const third = await llm.step({ system, messages, tools });
    expect(third.toolCalls).toEqual([]);
    expect(third.text).toContain('[ev_1]');
    // The fake saw the tool results as OpenAI tool messages, linked to the calls by id.
    const lastBody = fake.requests().at(-1)!.body;
    expect(lastBody.messages.filter((message) => message.role === 'tool')).toHaveLength(3);
  });

  it('falls back when the primary fails, and says which model answered', async () => {
    fake.setBehaviour('primary', 'fail');
    const result = await llmOf().step({ system, messages: [{ role: 'user', content: 'espresso grind size' }], tools });
    expect(result.model).toBe('fallback');
    expect(result.attempts.map((attempt) => [attempt.model, attempt.outcome])).toEqual([
      ['primary', 'error'],
      ['fallback', 'ok'],
    ]);
    expect(fake.requests().map((request) => request.model)).toEqual(['primary', 'fallback']);
  });

  it('is AI_UNAVAILABLE when both models fail', async () => {
    fake.setBehaviour('*', 'fail');
    const failure = await llmOf()
      .step({ system, messages: [{ role: 'user', content: 'espresso grind size' }], tools })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect((failure as AppError).code).toBe('AI_UNAVAILABLE');
  });
});
