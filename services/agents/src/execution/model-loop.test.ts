import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '@vrs/testing/temp-dir';
import { createLlm, llmEnvSchema, type Llm } from '@vrs/ai';
import { createLogger } from '@vrs/kit';
import { openStore, type Store } from '@vrs/store';
import { startFakeLlm, type FakeLlm } from '@vrs/testing/upstreams/llm/server';
import type { ProviderClient, ResearchClient, TrendsClient } from '../clients';
import type { RunLimits } from '../config';
import { classify } from '../planner/classify';
import { composeAnswer, extractiveLabels } from '../planner/compose-answer';
import { composeModelAnswer } from '../planner/compose-model-answer';
import { createRunEventsRepo } from '../repo/run-events-repo';
import { createRunsRepo, type RunDoc } from '../repo/runs-repo';
import { createStepsRepo, tallyOf } from '../repo/steps-repo';
import { runModelLoop } from './model-loop';
import { createToolRunner } from './tool-runner';
import { runningRun } from './running-run.fixture';

const startedAt = '2026-11-24T12:00:00.000Z';
const question = 'How do you insert a laryngeal mask airway?';
const videoIds = ['vidAAAAAAA1', 'vidBBBBBBB2', 'vidCCCCCCC3', 'vidDDDDDDD4'];
const logger = createLogger('model-loop-test');
logger.level = 'silent';

/** A provider that answers a search with four videos and every transcript with two windows, one on topic; it counts its calls. */
function fakeProvider() {
  const calls: string[] = [];
  const video = (id: string) => ({ id, title: `Video ${id}`, channel: { id: 'UC1', name: 'Channel' }, durationSeconds: 60, viewCount: 10 });
  const provider = {
    videos: {
      search: {
        query: async ({ q }: { q: string }) => {
          calls.push(`search:${q}`);
          return { result: { videos: videoIds.map(video) } };
        },
      },
      get: {
        query: async ({ videoId }: { videoId: string }) => {
          calls.push(`video:${videoId}`);
          return { result: video(videoId), cached: false };
        },
      },
    },
    transcripts: {
      get: {
        query: async ({ videoId }: { videoId: string }) => {
          calls.push(`transcript:${videoId}`);
          return {
            cached: false,
            result: {
              segments: [
                { startMs: 0, endMs: 4_000, text: `Welcome to ${videoId}.` },
                { startMs: 30_000, endMs: 36_000, text: 'Insert the laryngeal mask airway along the palate, cuff deflated.' },
              ],
            },
          };
        },
      },
    },
  };
  return { provider: provider as unknown as ProviderClient, calls };
}

describe('the model loop: model steps and tool calls, each once, held to the evidence', () => {
  let fake: FakeLlm;
  let llm: Llm;
  let store: Store;
  let run: RunDoc & { startedAt: string };

  beforeAll(async () => {
    fake = await startFakeLlm();
    llm = createLlm(
      llmEnvSchema.parse({
        LLM_BASE_URL: fake.baseUrl,
        LLM_PRIMARY_MODEL: 'primary',
        LLM_FALLBACK_MODEL: 'fallback',
        LLM_MAX_RETRIES: '0',
      }),
      { logger },
    )!;
  });
  afterAll(() => fake.close());

  beforeEach(async () => {
    fake.reset();
    store = await openStore({ service: 'agents', dataDir: makeTempDir('agents-loop-') });
    run = runningRun(startedAt, { message: question });
    await createRunsRepo(store).insert(run);
  });

  afterEach(() => store.close());

  async function loop(provider: ProviderClient, overrides: Partial<RunLimits> = {}, model: Llm = llm) {
    const limits: RunLimits = { maxModelSteps: 8, maxToolCalls: 20, maxWallMs: 60_000, creditBudget: 30, ...overrides };
    const runs = createRunsRepo(store);
    const steps = createStepsRepo(store);
    const runner = await createToolRunner(
      {
        runs,
        steps,
        runEvents: createRunEventsRepo(store, runs),
        limits,
        logger,
        now: () => Date.parse(startedAt) + 1_000,
        stopping: () => false,
      },
      run,
    );
    const classification = classify({ message: run.message, context: run.context, options: run.options });
    const deps = {
      provider,
      research: {} as ResearchClient,
      trends: {} as TrendsClient,
      llm: model,
      limits,
      runs,
      logger,
      settings: { storyboard: { maxSheets: 3, timeoutMs: 1000 } },
      now: () => Date.parse(startedAt) + 1_000,
    };
    const result = await runModelLoop(deps, runner, run, classification);
    return { result, classification, tally: tallyOf(await steps.ofRun(run._id)), steps: await steps.ofRun(run._id) };
  }

  it('searches, reads transcripts in one step, answers citing the analyst findings, which resolve; a resumed loop asks nothing again', async () => {
    const { provider, calls } = fakeProvider();
    const { result, classification, tally, steps } = await loop(provider);
    expect(tally).toEqual({ modelStepCount: 3, toolCallCount: 4, creditsCharged: 2 + 3 * 3 });
    // Each transcript read was analysed once, free; the model was shown (and cites) the findings.
    expect(steps.filter((step) => step.kind === 'transcript_analysis').map((step) => [step.key, step.credits])).toEqual(
      videoIds.slice(0, 3).map((id) => [`analyze:${id}`, 0]),
    );
    expect([...result.evidence.values()].every((item) => item.kind === 'finding')).toBe(true);
    expect(steps.filter((step) => step.kind === 'model_step').map((step) => [step.key, step.model])).toEqual([
      ['model:1', 'primary'],
      ['model:2', 'primary'],
      ['model:3', 'primary'],
    ]);
    expect(calls).toEqual(['search:insert laryngeal mask airway', ...videoIds.slice(0, 3).map((id) => `transcript:${id}`)]);
    const composed = composeModelAnswer(classification, result.gathered, result.evidence, result.answer!);
    expect(composed.outcome).toBe('answered');
    expect(composed.citations).toHaveLength(3);
    for (const [i, citation] of composed.citations.entries()) {
      expect(composed.answer).toContain(`[${i + 1}]`);
      expect(citation.startMs).toBe(30_000);
      expect(composed.sources.map((source) => source.id)).toContain(citation.sourceId);
    }
    expect(composed.answer).not.toMatch(/ev_\d/);

    const requestsBefore = fake.requests().length;
    const again = await loop(provider);
    expect(fake.requests()).toHaveLength(requestsBefore);
    expect(calls).toHaveLength(4);
    expect(again.result.answer).toBe(result.answer);
    expect(again.tally).toEqual(tally);
  });

  it('gives a tool error back to the model, which goes on; the failed step costs nothing', async () => {
    fake.setBehaviour('primary', 'tool-error');
    const { provider, calls } = fakeProvider();
    const { result, classification, steps } = await loop(provider);
    const failed = steps.find((step) => step.status === 'failed');
    expect(failed).toMatchObject({ kind: 'tool_call', tool: 'get_video', credits: 0, error: { code: 'TOOL_INPUT_INVALID' } });
    expect(calls.some((call) => call.startsWith('video:'))).toBe(false);
    const composed = composeModelAnswer(classification, result.gathered, result.evidence, result.answer!);
    expect(composed.outcome).toBe('answered');
    expect(composed.warnings).toContainEqual(expect.objectContaining({ code: 'TOOL_INPUT_INVALID' }));
    // The model saw the error as the result of its call.
    const second = fake.requests()[1]!.body.messages.find((message) => message.role === 'tool');
    expect(String(second?.content)).toContain('TOOL_INPUT_INVALID');
  });

  it('drops a citation the model made up, and says so', async () => {
    fake.setBehaviour('primary', 'cite-unknown');
    const { provider } = fakeProvider();
    const { result, classification } = await loop(provider);
    expect(result.answer).toContain('[ev_999]');
    const composed = composeModelAnswer(classification, result.gathered, result.evidence, result.answer!);
    expect(composed.warnings).toContainEqual(expect.objectContaining({ code: 'CITATIONS_DROPPED' }));
    expect(composed.answer).not.toContain('ev_999');
    expect(composed.answer).not.toContain(`[${composed.citations.length + 1}]`);
  });

  it('ends at the model-step limit; the finalizer answers from what was gathered, partial', async () => {
    const { provider } = fakeProvider();
    const { result, classification, tally } = await loop(provider, { maxModelSteps: 2 });
    expect(result.answer).toBeUndefined();
    expect(result.gathered.stoppedBy).toBe('MODEL_STEP_LIMIT');
    expect(tally.modelStepCount).toBe(2);
    const composed = composeAnswer(classification, result.gathered, extractiveLabels.modelUnfinished);
    expect(composed.outcome).toBe('partial');
    expect(composed.warnings).toContainEqual(expect.objectContaining({ code: 'MODEL_STEP_LIMIT' }));
  });

  it('falls back when the primary fails; with both failing the step is persisted failed and the loop ends', async () => {
    fake.setBehaviour('primary', 'fail');
    const { provider } = fakeProvider();
    const { steps } = await loop(provider);
    expect(steps.filter((step) => step.kind === 'model_step').every((step) => step.model === 'fallback')).toBe(true);
    await store.collection('agent_run_steps').deleteMany({});
    fake.setBehaviour('fallback', 'fail');
    const failing = await loop(provider);
    expect(failing.result.gathered.stoppedBy).toBe('MODEL_UNAVAILABLE');
    expect(failing.steps).toMatchObject([{ key: 'model:1', status: 'failed', error: { code: 'AI_UNAVAILABLE' } }]);
  });

  it('makes a call asked twice once, and shows it again with the same evidence ids', async () => {
    const { provider, calls } = fakeProvider();
    const transcript = (id: string) => ({ id, name: 'get_transcript', input: { videoId: videoIds[0] } });
    const script = [[transcript('a'), transcript('b')], [transcript('c')]];
    const seen: unknown[] = [];
    const scripted = {
      models: ['scripted'],
      // The transcript analyst asks the fake LLM.
      generateObject: (request: never) => llm.generateObject(request),
      step: async ({ messages }: { messages: readonly unknown[] }) => {
        seen.push(structuredClone(messages.at(-1)));
        const toolCalls = script[seen.length - 1] ?? [];
        return { text: toolCalls.length ? '' : 'Cuff deflated [ev_2].', toolCalls, model: 'scripted', usage: {}, attempts: [] };
      },
    } as unknown as Llm;
    const { result, classification, tally, steps } = await loop(provider, {}, scripted);
    expect(calls).toEqual([`transcript:${videoIds[0]}`]);
    expect(tally).toMatchObject({ modelStepCount: 3, toolCallCount: 1 });
    // One analysis of the one transcript; its findings are the evidence, shown under the same ids each time.
    expect(steps.filter((step) => step.kind === 'transcript_analysis').map((step) => step.key)).toEqual([`analyze:${videoIds[0]}`]);
    expect(result.evidence.size).toBe(result.findings.length);
    expect(result.gathered.windows).toHaveLength(2);
    const [second, third] = seen.slice(1) as Array<{ results: Array<{ output: unknown }> }>;
    expect(second!.results[1]!.output).toEqual(second!.results[0]!.output);
    expect(third!.results[0]!.output).toEqual(second!.results[0]!.output);
    const composed = composeModelAnswer(classification, result.gathered, result.evidence, result.answer!);
    expect(composed).toMatchObject({ outcome: 'partial', answer: 'Cuff deflated [1].', citations: [{ startMs: 30_000, endMs: 36_000 }] });
  });
});
