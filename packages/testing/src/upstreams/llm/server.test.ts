import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fakeLlmControl, type FakeLlmControl } from './control-client';
import { startFakeLlm, type FakeLlm } from './server';

let fake: FakeLlm;
let control: FakeLlmControl;

const prompt = 'Which grind?\n[1] (id: ev_1) Finer grinds extract faster.\n[2] (id: ev_2) Coarse grinds taste sour.';
const answerSchema = {
  type: 'object',
  properties: { answer: { type: 'string' }, evidenceIds: { type: 'array', items: { type: 'string' }, minItems: 1 } },
  required: ['answer', 'evidenceIds'],
  additionalProperties: false,
};

function chat(body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${fake.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test', ...headers },
    body: JSON.stringify({
      model: 'fake-primary',
      messages: [
        { role: 'system', content: 'Answer from the evidence.' },
        { role: 'user', content: prompt },
      ],
      ...body,
    }),
  });
}

interface Completion {
  choices: Array<{ message: { content: string; tool_calls: Array<{ function: { arguments: string } }> } }>;
}
const completionOf = async (response: Response) => (await response.json()) as Completion;

const structured = { response_format: { type: 'json_schema', json_schema: { name: 'response', strict: false, schema: answerSchema } } };

beforeAll(async () => {
  fake = await startFakeLlm({ port: 0 });
  control = fakeLlmControl(fake.url);
});
afterEach(() => control.reset());
afterAll(() => fake.close());

describe('fake LLM: chat completions', () => {
  it('answers response_format json_schema with a chat.completion whose content fills the schema from the prompt', async () => {
    const response = await chat(structured);
    const body = await completionOf(response);

    expect(response.status).toBe(200);
    expect(body).toMatchObject({
      id: expect.stringMatching(/^chatcmpl-/),
      object: 'chat.completion',
      created: expect.any(Number),
      model: 'fake-primary',
      choices: [{ index: 0, message: { role: 'assistant', content: expect.any(String) }, finish_reason: 'stop' }],
      usage: { prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number), total_tokens: expect.any(Number) },
    });
    expect(JSON.parse(body.choices[0]!.message.content)).toEqual({
      answer: '(id: ev_1) Finer grinds extract faster [1].',
      evidenceIds: ['ev_1', 'ev_2'],
    });
  });

  it('answers a forced tool call with tool_calls whose arguments fill the tool parameters', async () => {
    const response = await chat({
      tools: [
        {
          type: 'function',
          function: {
            name: 'cite',
            parameters: { type: 'object', properties: { evidenceIds: { type: 'array', items: { type: 'string' } } } },
          },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'cite' } },
    });
    const body = await completionOf(response);

    expect(body.choices[0]).toMatchObject({
      message: { role: 'assistant', content: null, tool_calls: [{ id: expect.any(String), type: 'function', function: { name: 'cite' } }] },
      finish_reason: 'tool_calls',
    });
    expect(JSON.parse(body.choices[0]!.message.tool_calls[0]!.function.arguments)).toEqual({ evidenceIds: ['ev_1', 'ev_2'] });
  });

  it('answers JSON mode without a schema as {answer, citedIds}', async () => {
    const body = await completionOf(await chat({ response_format: { type: 'json_object' } }));

    expect(JSON.parse(body.choices[0]!.message.content)).toEqual({
      answer: '(id: ev_1) Finer grinds extract faster [1].',
      citedIds: ['ev_1', 'ev_2'],
    });
  });

  it('answers plain requests with text citing the [n] entries', async () => {
    const body = await completionOf(await chat({}));

    expect(body.choices[0]!.message.content).toBe('(id: ev_1) Finer grinds extract faster [1].');
  });

  it('refuses streaming and malformed requests in OpenAI error shape', async () => {
    const streaming = await chat({ stream: true });
    expect(streaming.status).toBe(400);
    expect(await streaming.json()).toEqual({
      error: { message: 'the fake LLM does not stream', type: 'invalid_request_error', param: null, code: null },
    });

    const noMessages = await fetch(`${fake.baseUrl}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'x' }) });
    expect(noMessages.status).toBe(400);
  });

  it('lists models', async () => {
    await control.setBehaviour('custom-model', 'ok');
    const body = (await (await fetch(`${fake.baseUrl}/models`)).json()) as { object: string; data: Array<{ id: string }> };

    expect(body.object).toBe('list');
    expect(body.data.map((model) => model.id)).toEqual(['fake-primary', 'fake-fallback', 'custom-model']);
    expect(body.data[0]).toEqual({ id: 'fake-primary', object: 'model', created: 0, owned_by: 'fake-llm' });
  });
});

describe('fake LLM: behaviours and control API', () => {
  it('fail answers 500 in OpenAI error shape, for that model only', async () => {
    await control.setBehaviour('fake-primary', 'fail');
    const failed = await chat(structured);

    expect(failed.status).toBe(500);
    expect(failed.headers.get('retry-after-ms')).toBe('0');
    expect(await failed.json()).toMatchObject({ error: { message: expect.stringContaining('fake-primary'), type: 'server_error' } });
    expect((await chat({ ...structured, model: 'fake-fallback' })).status).toBe(200);
  });

  it('model * sets the default behaviour', async () => {
    await control.setBehaviour('*', 'fail');
    await control.setBehaviour('fake-fallback', 'ok');

    expect((await chat({ model: 'anything' })).status).toBe(500);
    expect((await chat({ model: 'fake-fallback' })).status).toBe(200);
  });

  it('timeout holds the request until reset', async () => {
    await control.setBehaviour('fake-primary', 'timeout');
    const pending = chat(structured).then(
      () => 'answered',
      () => 'dropped',
    );
    await vi.waitFor(async () => expect(await control.requests()).toHaveLength(1));
    await control.reset();

    expect(await pending).toBe('dropped');
  });

  it('invalid-json answers 200 with content no JSON parser accepts', async () => {
    await control.setBehaviour('fake-primary', 'invalid-json');
    const content = (await completionOf(await chat(structured))).choices[0]!.message.content;

    expect(() => JSON.parse(content)).toThrow(SyntaxError);
  });

  it('wrong-shape answers valid JSON outside the schema', async () => {
    await control.setBehaviour('fake-primary', 'wrong-shape');
    const content = (await completionOf(await chat(structured))).choices[0]!.message.content;

    expect(JSON.parse(content)).toEqual({ unexpected: true });
  });

  it('cite-unknown cites ids and entries the prompt never gave', async () => {
    await control.setBehaviour('fake-primary', 'cite-unknown');
    const content = JSON.parse((await completionOf(await chat(structured))).choices[0]!.message.content);

    expect(content).toEqual({ answer: '(id: ev_1) Finer grinds extract faster [1] [3].', evidenceIds: ['ev_1', 'ev_fabricated'] });
  });

  it('unground-once answers ungrounded until a request names the grounding issues (a repair), which it answers grounded', async () => {
    await control.setBehaviour('fake-primary', 'unground-once');
    const findings = {
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'response',
          schema: {
            type: 'object',
            properties: { claim: { type: 'string' }, quote: { type: 'string' }, windowIndex: { type: 'integer' } },
          },
        },
      },
    };
    const ask = async (content: string) =>
      JSON.parse((await completionOf(await chat({ ...findings, messages: [{ role: 'user', content }] }))).choices[0]!.message.content) as {
        claim: string;
        quote: string;
      };
    const windows = 'How?\n[1] Finer grinds extract faster.';

    const first = await ask(windows);
    const again = await ask(windows);
    const repaired = await ask(`${windows}\nYour answer was rejected: QUOTE_NOT_IN_WINDOW in finding 0.`);

    for (const answer of [first, again]) {
      expect(windows).not.toContain(answer.quote);
      expect(answer.claim).toContain('Zebulon Quillfeather');
    }
    expect(repaired).toEqual({ claim: 'Finer grinds extract faster [1].', quote: 'Finer grinds extract faster.', windowIndex: 1 });
  });

  it('records what each model was asked', async () => {
    await chat(structured);
    await control.setBehaviour('fake-fallback', 'fail');
    await chat({ model: 'fake-fallback' });

    expect(await control.requests()).toEqual([
      expect.objectContaining({
        model: 'fake-primary',
        behaviour: 'ok',
        mode: 'json_schema',
        system: 'Answer from the evidence.',
        prompt,
        apiKey: 'sk-test',
      }),
      expect.objectContaining({ model: 'fake-fallback', behaviour: 'fail', mode: 'text' }),
    ]);
    expect(fake.requests()[0]!.body.response_format).toEqual(structured.response_format);
  });

  it('rejects unknown behaviours and routes', async () => {
    const response = await fetch(`${fake.url}/__control/behaviour`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', behaviour: 'explode' }),
    });
    expect(response.status).toBe(400);
    expect((await fetch(`${fake.url}/__control/nope`)).status).toBe(404);
    expect((await fetch(`${fake.baseUrl}/embeddings`, { method: 'POST' })).status).toBe(404);
  });
});

describe('fake LLM: tool loops', () => {
  const tools = ['search_videos', 'get_video', 'get_transcript'].map((name) => ({
    type: 'function',
    function: { name, parameters: { type: 'object', properties: {} } },
  }));
  const loopMessages = [
    { role: 'system', content: 'Research. Read up to 2 transcripts.' },
    { role: 'user', content: 'How do you descale an espresso machine?' },
  ];

  it('plays the research policy with tool_choice auto, records its answers, and waits as told', async () => {
    await control.setLatency(150);
    const started = performance.now();
    const first = await completionOf(await chat({ messages: loopMessages, tools, tool_choice: 'auto' }));
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    const search = first.choices[0]!.message.tool_calls[0] as unknown as { id: string; function: { name: string; arguments: string } };
    expect(search.function).toEqual({ name: 'search_videos', arguments: JSON.stringify({ q: 'descale espresso machine' }) });
    await control.setLatency(0);
    const answered = await completionOf(
      await chat({
        tools,
        messages: [
          ...loopMessages,
          { role: 'assistant', content: null, tool_calls: [{ ...search, type: 'function' }] },
          {
            role: 'tool',
            tool_call_id: search.id,
            content: JSON.stringify({ videos: [{ videoId: 'aaaaaaaaaa1' }, { videoId: 'bbbbbbbbbb2' }, { videoId: 'ccccccccc3c' }] }),
          },
        ],
      }),
    );
    const calls = answered.choices[0]!.message.tool_calls.map((call) => JSON.parse(call.function.arguments));
    expect(calls).toEqual([{ videoId: 'aaaaaaaaaa1' }, { videoId: 'bbbbbbbbbb2' }]);
    const log = await control.requests();
    expect(log.map((entry) => [entry.mode, entry.answer?.toolCalls.map((call) => call.name)])).toEqual([
      ['agent', ['search_videos']],
      ['agent', ['get_transcript', 'get_transcript']],
    ]);
  });

  it('tool-error: the first step calls a tool with arguments no video id has', async () => {
    await control.setBehaviour('fake-primary', 'tool-error');
    const first = await completionOf(await chat({ messages: loopMessages, tools }));
    expect(first.choices[0]!.message.tool_calls[0]).toMatchObject({
      function: { name: 'get_video', arguments: JSON.stringify({ videoId: 'not a video id' }) },
    });
  });
});
