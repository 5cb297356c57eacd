import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '@vrs/testing/temp-dir';
import { createLlm, llmEnvSchema, type Llm } from '@vrs/ai';
import type { StoryboardCapture } from '@vrs/contracts';
import { createLogger } from '@vrs/kit';
import { openStore, type Store } from '@vrs/store';
import { startFakeLlm, type FakeLlm } from '@vrs/testing/upstreams/llm/server';
import type { ProviderClient, ResearchClient, TrendsClient } from '../clients';
import type { AgentsSettings } from '../config';
import type { Classification } from '../planner/classify';
import type { Gathered } from '../planner/gathered';
import { createRunEventsRepo } from '../repo/run-events-repo';
import { createRunsRepo, type RunDoc } from '../repo/runs-repo';
import { createStepsRepo } from '../repo/steps-repo';
import { runModelLoop } from './model-loop';
import { createToolRunner } from './tool-runner';
import { runningRun } from './running-run.fixture';

const startedAt = '2026-11-24T12:00:00.000Z';
const videoId = 'rCAS2eD-mcw';
const logger = createLogger('storyboard-test');
logger.level = 'silent';

/** What the provider answers for a readable storyboard: one 2×2 sheet, frames 5 s apart. */
const capture: StoryboardCapture = {
  videoId,
  outcome: 'success',
  capture: 'available',
  status: 200,
  profile: 'ANDROID',
  spec: {
    levelCount: 3,
    level: 2,
    frameWidth: 160,
    frameHeight: 90,
    frameCount: 4,
    columns: 2,
    rows: 2,
    intervalMs: 5000,
    sheetCount: 1,
    durationMs: 20_000,
  },
  sheets: [
    {
      index: 0,
      webpBase64: Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]).toString('base64'),
      width: 320,
      height: 180,
      inputBytes: 900,
      outputBytes: 16,
      firstFrame: 0,
      frameCount: 4,
      columns: 2,
      rows: 2,
      frameWidth: 160,
      frameHeight: 90,
      frameTimesMs: [0, 5000, 10_000, 15_000],
    },
  ],
  events: [{ stage: 'player', profile: 'ANDROID', outcome: 'selected', playabilityStatus: 'OK', elapsedMs: 3 }],
  elapsedMs: 42,
  egress: 'direct',
};

const classification: Classification = {
  route: { route: 'video_question', researchBreadth: 'standard', answerDetail: 'standard', useStoryboard: true, searchQuery: '' },
  videoIds: [videoId],
  terms: ['cuff'],
};
const settings = { storyboard: { maxSheets: 3, timeoutMs: 1000 } } as AgentsSettings;

describe('storyboard evidence of a model loop (get_storyboard)', () => {
  let fakeLlm: FakeLlm;
  let llm: Llm;
  let store: Store;
  let run: RunDoc & { startedAt: string };
  let providerCalls: number;
  let answer: StoryboardCapture;
  const provider = {
    storyboards: {
      get: {
        query: async () => {
          providerCalls++;
          return answer;
        },
      },
    },
  } as unknown as ProviderClient;

  beforeAll(async () => {
    fakeLlm = await startFakeLlm();
    llm = createLlm(llmEnvSchema.parse({ LLM_BASE_URL: fakeLlm.baseUrl, LLM_PRIMARY_MODEL: 'agents', LLM_MAX_RETRIES: '0' }), { logger })!;
  });
  afterAll(() => fakeLlm.close());

  beforeEach(async () => {
    fakeLlm.reset();
    providerCalls = 0;
    answer = capture;
    store = await openStore({ service: 'agents', dataDir: makeTempDir('agents-storyboard-') });
    run = runningRun(startedAt, { message: `How is the cuff checked in ${videoId}?`, options: { useStoryboard: true }, creditBudget: 10 });
    await createRunsRepo(store).insert(run);
  });
  afterEach(() => store.close());

  /**
   * A model that asks for the video's storyboard, then answers citing the first evidence id; the
   * frames are described by the fake LLM (the images go there). Records the tools it was offered.
   */
  function scripted(offered: string[][]): Llm {
    return {
      models: ['scripted'],
      generateObject: (request: never) => llm.generateObject(request),
      step: async ({ messages, tools }: { messages: readonly unknown[]; tools: Record<string, unknown> }) => {
        offered.push(Object.keys(tools));
        const first = messages.length === 1;
        return {
          text: first ? '' : 'The cuff [ev_1].',
          toolCalls: first ? [{ id: 'c1', name: 'get_storyboard', input: { videoId } }] : [],
          model: 'scripted',
          usage: {},
          attempts: [],
        };
      },
    } as unknown as Llm;
  }

  async function read(
    options: { creditBudget?: number; useStoryboard?: boolean; offered?: string[][] } = {},
  ): Promise<{ gathered: Gathered; run: RunDoc }> {
    const runs = createRunsRepo(store);
    const steps = createStepsRepo(store);
    const current = { ...run, creditBudget: options.creditBudget ?? run.creditBudget };
    const runner = await createToolRunner(
      {
        runs,
        steps,
        runEvents: createRunEventsRepo(store, runs),
        limits: { maxModelSteps: 8, maxToolCalls: 10, maxWallMs: 60_000, creditBudget: current.creditBudget },
        logger,
        now: () => Date.parse(startedAt),
        stopping: () => false,
      },
      current,
    );
    const deps = {
      provider,
      research: {} as ResearchClient,
      trends: {} as TrendsClient,
      llm: scripted(options.offered ?? []),
      limits: { maxModelSteps: 4, maxToolCalls: 10, maxWallMs: 60_000, creditBudget: current.creditBudget },
      runs,
      settings,
      logger,
      now: () => Date.parse(startedAt),
    };
    const route = { ...classification.route, useStoryboard: options.useStoryboard ?? true };
    const { gathered } = await runModelLoop(deps, runner, current, { ...classification, route });
    return { gathered, run: (await runs.findById(run._id))! };
  }

  it('describes the sheets through the model and records the attempt; a resumed run reuses the step and writes the same item', async () => {
    const first = await read();
    const frames = first.gathered.windows.filter((window) => window.source === 'storyboard');
    expect(frames.length).toBeGreaterThan(0);
    for (const frame of frames) {
      expect([0, 5000, 10_000, 15_000]).toContain(frame.startMs);
      expect(frame.endMs - frame.startMs).toBe(5000);
      expect(frame.text).toMatch(/^Storyboard frame at \d+:\d{2}, as the model describes it: /);
    }
    const [sent] = fakeLlm.requests();
    expect(sent!.images).toEqual([{ mediaType: 'image/webp', bytes: 16, webp: true }]);
    expect(sent!.prompt).toContain('Frame 4: 0:15');
    const [item] = first.run.extractionDiagnostics!;
    expect(item).toMatchObject({ outcome: 'success', toolCallId: `get_storyboard:${videoId}`, slot: 0, status: 200, droppedEvents: 0 });
    expect(item!.events.at(-1)).toMatchObject({
      stage: 'model_input',
      outcome: 'sent',
      sheetCount: 1,
      inputBytes: 16,
      inputFormat: 'webp',
    });
    const steps = await createStepsRepo(store).ofRun(run._id);
    expect(steps.filter((step) => step.kind === 'tool_call').map((step) => [step.key, step.credits])).toEqual([
      [`get_storyboard:${videoId}`, 2],
    ]);

    const resumed = await read();
    expect(providerCalls).toBe(1);
    expect(resumed.run.extractionDiagnostics).toEqual([expect.objectContaining({ extractionId: item!.extractionId })]);
  });

  it('charges nothing for a failed capture, asks no model, and warns', async () => {
    answer = { ...capture, outcome: 'failure', failureKind: 'http_error', status: 503, sheets: [] };
    const { gathered, run: stored } = await read();
    expect(fakeLlm.requests()).toEqual([]);
    expect(gathered.warnings).toEqual([{ code: 'STORYBOARD_UNAVAILABLE', message: expect.stringContaining('http_error') }]);
    expect(stored.extractionDiagnostics).toEqual([expect.objectContaining({ outcome: 'failure', failureKind: 'http_error', status: 503 })]);
    expect((await createStepsRepo(store).ofRun(run._id))[0]!.credits).toBe(0);
  });

  it('records a step its budget refuses as skipped with failureKind budget', async () => {
    const { run: stored } = await read({ creditBudget: 1 });
    expect(providerCalls).toBe(0);
    expect(stored.extractionDiagnostics).toEqual([expect.objectContaining({ outcome: 'skipped', failureKind: 'budget', events: [] })]);
  });

  it('offers get_storyboard only with useStoryboard', async () => {
    const offered: string[][] = [];
    await read({ offered });
    expect(offered[0]).toContain('get_storyboard');
    await store.collection('agent_run_steps').deleteMany({});
    const without: string[][] = [];
    const { run: stored } = await read({ useStoryboard: false, offered: without });
    expect(without[0]).not.toContain('get_storyboard');
    // The scripted model asked anyway: the call is refused as a tool the run does not offer, no storyboard is read, no attempt recorded.
    expect(providerCalls).toBe(1);
    expect(stored.extractionDiagnostics).toEqual([expect.objectContaining({ outcome: 'success' })]);
  });
});
