import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from './server';

// The fake is only useful if the AI SDK parses its answers as it parses OpenAI's. Structured output
// goes through @vrs/ai's tests; these cover the other two ways the SDK asks.
let fake: FakeLlm;

beforeAll(async () => {
  fake = await startFakeLlm({ port: 0 });
});
afterAll(() => fake.close());

const model = () => createOpenAICompatible({ name: 'fake', baseURL: fake.baseUrl }).chatModel('fake-primary');
const prompt = 'Which videos?\nvideoId: dQw4w9WgXcQ\nvideoId: abcDEF12345';

describe('the AI SDK against the fake LLM', () => {
  it('parses a tool call the fake fills from the tool parameters', async () => {
    const result = await generateText({
      model: model(),
      prompt,
      tools: {
        pick: tool({
          inputSchema: jsonSchema<{ videoIds: string[] }>({
            type: 'object',
            properties: { videoIds: { type: 'array', items: { type: 'string' } } },
            required: ['videoIds'],
          }),
        }),
      },
      toolChoice: { type: 'tool', toolName: 'pick' },
      maxRetries: 0,
    });

    expect(result.finishReason).toBe('tool-calls');
    expect(result.toolCalls).toMatchObject([{ toolName: 'pick', input: { videoIds: ['dQw4w9WgXcQ', 'abcDEF12345'] } }]);
    expect(fake.requests().at(-1)?.mode).toBe('tool');
  });

  it('parses a plain text answer and its usage', async () => {
    const result = await generateText({ model: model(), prompt: 'Grind?\n[1] Finer grinds extract faster.', maxRetries: 0 });

    expect(result.text).toBe('Finer grinds extract faster [1].');
    expect(result.usage.totalTokens).toBeGreaterThan(0);
  });
});
