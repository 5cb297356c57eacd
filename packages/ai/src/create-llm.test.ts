import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AppError, ConfigError, createLogger } from '@vrs/kit';
import { startFakeLlm, type FakeLlm } from '@vrs/testing/upstreams/llm/server';
import { checkCitedText } from './check-cited-text';
import { llmEnvSchema } from './config';
import { createLlm, type Llm } from './create-llm';
import { groundCitations } from './ground-citations';

// What a research answer looks like: prose marked [n] and claims citing evidence ids.
const answerSchema = z.object({
  answer: z.string().min(1),
  claims: z.array(z.object({ text: z.string(), evidenceIds: z.array(z.string()).min(1) })).min(1),
});
const evidence = [
  { id: 'ev_01', text: 'Finer grinds extract espresso faster.' },
  { id: 'ev_02', text: 'A coarse grind tastes sour.' },
  { id: 'ev_03', text: 'Most recipes dose 18 g.' },
];
const request = {
  schema: answerSchema,
  system: 'Answer only from the evidence; cite evidence ids.',
  prompt: `How fine should espresso be ground?\n${evidence.map((item, i) => `[${i + 1}] (id: ${item.id}) ${item.text}`).join('\n')}`,
};

let fake: FakeLlm;
const logger = createLogger('llm-test');
logger.level = 'silent';

/** A client of the fake; an `undefined` value leaves that variable unset. */
function llmWith(env: Record<string, string | undefined> = {}): Llm {
  const settings = {
    LLM_BASE_URL: fake.baseUrl,
    LLM_API_KEY: 'test-key',
    LLM_PRIMARY_MODEL: 'primary',
    LLM_FALLBACK_MODEL: 'fallback',
    LLM_MAX_RETRIES: '0',
    ...env,
  };
  const config = llmEnvSchema.parse(Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)));
  const llm = createLlm(config, { logger });
  if (!llm) throw new Error('expected a configured LLM');
  return llm;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('expected a rejection'),
    (error: unknown) => error,
  );
}

beforeAll(async () => {
  fake = await startFakeLlm({ port: 0 });
});
afterEach(() => {
  fake.reset();
  vi.restoreAllMocks();
});
afterAll(async () => {
  await fake.close();
});

describe('createLlm', () => {
  it('returns null when no base URL is configured', () => {
    expect(createLlm(llmEnvSchema.parse({}))).toBeNull();
  });

  it('refuses a base URL without a primary model', () => {
    expect(() => createLlm(llmEnvSchema.parse({ LLM_BASE_URL: 'http://127.0.0.1:1/v1' }))).toThrow(ConfigError);
  });

  it('applies the documented defaults', () => {
    expect(llmEnvSchema.parse({})).toEqual({ LLM_TIMEOUT_MS: 30_000, LLM_MAX_RETRIES: 1 });
  });
});

describe('generateObject against the fake LLM', () => {
  it('answers with the primary model, sending the schema, the prompt and the key', async () => {
    const info = vi.spyOn(logger, 'info');
    const result = await llmWith().generateObject(request);

    expect(result.model).toBe('primary');
    expect(result.attempts).toEqual([{ model: 'primary', outcome: 'ok', latencyMs: expect.any(Number) }]);
    expect(answerSchema.parse(result.object)).toEqual(result.object);
    const cited = result.object.claims.flatMap((claim) => claim.evidenceIds);
    expect(cited.length).toBeGreaterThan(0);
    expect(cited.every((id) => evidence.some((item) => item.id === id))).toBe(true);
    expect(result.usage.totalTokens).toBeGreaterThan(0);
    expect(result.finishReason).toBe('stop');

    const [asked] = fake.requests();
    expect(asked).toMatchObject({
      model: 'primary',
      mode: 'json_schema',
      apiKey: 'test-key',
      system: request.system,
      prompt: request.prompt,
    });
    expect(asked?.body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { schema: { type: 'object', required: ['answer', 'claims'] } },
    });
    expect(info).toHaveBeenCalledWith(
      expect.objectContaining({ model: 'primary', outcome: 'ok', latencyMs: expect.any(Number) }),
      'llm attempt',
    );
  });

  it('sends images as image parts of the user message, beside the prompt', async () => {
    // The smallest valid WebP header is enough: the fake decodes and inspects, it does not render.
    const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 '), Buffer.alloc(8)]);
    const result = await llmWith().generateObject({
      ...request,
      images: [
        { data: webp, mediaType: 'image/webp' },
        { data: webp.toString('base64'), mediaType: 'image/webp' },
      ],
    });
    expect(result.object.answer).toBeTruthy();
    const [sent] = fake.requests();
    expect(sent!.images).toEqual([
      { mediaType: 'image/webp', bytes: webp.byteLength, webp: true },
      { mediaType: 'image/webp', bytes: webp.byteLength, webp: true },
    ]);
    expect(sent!.prompt).toBe(request.prompt);
  });

  it('falls back when the primary fails, and names the fallback', async () => {
    fake.setBehaviour('primary', 'fail');
    const warn = vi.spyOn(logger, 'warn');
    const result = await llmWith().generateObject(request);

    expect(result.model).toBe('fallback');
    expect(result.attempts).toEqual([
      { model: 'primary', outcome: 'error', reason: 'HTTP 500', statusCode: 500, latencyMs: expect.any(Number) },
      { model: 'fallback', outcome: 'ok', latencyMs: expect.any(Number) },
    ]);
    expect(fake.requests().map(({ model }) => model)).toEqual(['primary', 'fallback']);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ model: 'primary', outcome: 'error', reason: 'HTTP 500' }),
      'llm attempt failed',
    );
  });

  it('retries the same model LLM_MAX_RETRIES times before falling back', async () => {
    fake.setBehaviour('primary', 'fail');
    const result = await llmWith({ LLM_MAX_RETRIES: '1' }).generateObject(request);

    expect(fake.requests().map(({ model }) => model)).toEqual(['primary', 'primary', 'fallback']);
    expect(result.attempts[0]).toMatchObject({ model: 'primary', outcome: 'error', reason: 'HTTP 500 (after 2 tries)' });
  });

  it('falls back when the primary times out', async () => {
    fake.setBehaviour('primary', 'timeout');
    // Long enough for the fallback to answer on a loaded machine: the timeout bounds it too.
    const result = await llmWith({ LLM_TIMEOUT_MS: '2000' }).generateObject(request);

    expect(result.model).toBe('fallback');
    expect(result.attempts[0]).toMatchObject({ model: 'primary', outcome: 'timeout', reason: 'no answer within 2000 ms' });
    expect(result.attempts[0]?.latencyMs).toBeGreaterThanOrEqual(1990);
  });

  it('falls back when the primary answers with invalid JSON', async () => {
    fake.setBehaviour('primary', 'invalid-json');
    const result = await llmWith().generateObject(request);

    expect(result.model).toBe('fallback');
    expect(result.attempts[0]).toMatchObject({ outcome: 'invalid-output', reason: 'the answer was not valid JSON' });
  });

  it('falls back when the primary answers JSON outside the schema', async () => {
    fake.setBehaviour('primary', 'wrong-shape');
    const result = await llmWith().generateObject(request);

    expect(result.model).toBe('fallback');
    expect(result.attempts[0]).toMatchObject({ outcome: 'invalid-output', reason: 'the answer did not match the schema' });
  });

  it('enforces zod rules that JSON Schema cannot carry', async () => {
    const stricter = answerSchema.refine((value) => value.claims.length >= 5, 'at least five claims');
    const error = await rejection(llmWith().generateObject({ ...request, schema: stricter }));

    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).details).toEqual({
      attempts: [
        { model: 'primary', outcome: 'invalid-output', reason: 'the answer did not match the schema' },
        { model: 'fallback', outcome: 'invalid-output', reason: 'the answer did not match the schema' },
      ],
    });
  });

  it('throws AI_UNAVAILABLE (503) with every attempt when both models fail', async () => {
    fake.setBehaviour('primary', 'fail');
    fake.setBehaviour('fallback', 'timeout');
    // Long enough that the failing primary's answer always arrives first, however loaded the machine.
    const error = await rejection(llmWith({ LLM_TIMEOUT_MS: '5000' }).generateObject(request));

    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'AI_UNAVAILABLE', status: 503 });
    expect((error as AppError).details).toEqual({
      attempts: [
        { model: 'primary', outcome: 'error', reason: 'HTTP 500', statusCode: 500 },
        { model: 'fallback', outcome: 'timeout', reason: 'no answer within 5000 ms' },
      ],
    });
  });

  it('has nothing to fall back to without a fallback model', async () => {
    fake.setBehaviour('primary', 'fail');
    const error = await rejection(llmWith({ LLM_FALLBACK_MODEL: undefined }).generateObject(request));

    expect(error).toMatchObject({
      code: 'AI_UNAVAILABLE',
      details: { attempts: [{ model: 'primary', outcome: 'error', reason: 'HTTP 500', statusCode: 500 }] },
    });
    expect(fake.requests()).toHaveLength(1);
  });

  it('stops without trying the fallback when the caller gives up', async () => {
    fake.setBehaviour('primary', 'timeout');
    const caller = new AbortController();
    const pending = rejection(llmWith().generateObject({ ...request, signal: caller.signal }));
    await vi.waitFor(() => expect(fake.requests()).toHaveLength(1));
    caller.abort(new Error('client went away'));

    expect(await pending).toEqual(new Error('client went away'));
    expect(fake.requests().map(({ model }) => model)).toEqual(['primary']);
  });

  it('cite-unknown output comes out of the grounding helpers with fabricated citations dropped or repaired', async () => {
    fake.setBehaviour('primary', 'cite-unknown');
    const { object, model } = await llmWith().generateObject(request);
    expect(model).toBe('primary');
    expect(object.claims.flatMap((claim) => claim.evidenceIds)).toContain('ev_fabricated');

    const grounded = groundCitations({
      claims: object.claims,
      allowedIds: evidence.map((item) => item.id),
      getIds: (claim) => claim.evidenceIds,
      setIds: (claim, evidenceIds) => ({ ...claim, evidenceIds }),
    });
    expect(grounded.claims.length).toBeGreaterThan(0);
    expect(grounded.claims.flatMap((claim) => claim.evidenceIds).every((id) => evidence.some((item) => item.id === id))).toBe(true);
    expect(grounded.repaired).toEqual([{ index: 0, removedIds: ['ev_fabricated'] }]);
    expect(grounded.dropped).toMatchObject([{ index: 1, unknownIds: ['ev_fabricated'] }]);

    const checked = checkCitedText(object.answer, evidence);
    expect(checked.removedMarkers).toEqual([evidence.length + 1]);
    expect(checked.text).not.toContain(`[${evidence.length + 1}]`);
    expect(checked.citedIndexes.length).toBeGreaterThan(0);
  });
});
