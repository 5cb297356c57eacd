import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '@vrs/testing/temp-dir';
import { createLogger } from '@vrs/kit';
import { openStore, type Store } from '@vrs/store';
import type { RunLimits } from '../config';
import { createRunEventsRepo } from '../repo/run-events-repo';
import { createRunsRepo, type RunDoc } from '../repo/runs-repo';
import { createStepsRepo, tallyOf } from '../repo/steps-repo';
import { createToolRunner, RunNoLongerActive } from './tool-runner';
import { runningRun } from './running-run.fixture';

const startedAt = '2026-11-24T12:00:00.000Z';
const limits: RunLimits = { maxModelSteps: 8, maxToolCalls: 3, maxWallMs: 10_000, creditBudget: 10 };

describe('the tool runner: each call once, within the run’s budgets', () => {
  let store: Store;
  let now: number;
  let run: RunDoc & { startedAt: string };

  beforeEach(async () => {
    store = await openStore({ service: 'agents', dataDir: makeTempDir('agents-runner-') });
    now = Date.parse(startedAt);
    run = runningRun(startedAt, { creditBudget: limits.creditBudget });
    await createRunsRepo(store).insert(run);
  });

  afterEach(() => store.close());

  async function runner(overrides: Partial<RunLimits> = {}) {
    const runs = createRunsRepo(store);
    return createToolRunner(
      {
        runs,
        steps: createStepsRepo(store),
        runEvents: createRunEventsRepo(store, runs),
        limits: { ...limits, ...overrides },
        logger: createLogger('test'),
        now: () => now,
        stopping: () => false,
      },
      run,
    );
  }

  const price = { fresh: 3, cached: 1 };

  it('answers a persisted call from its step on a second runner (a resumed run), without calling again', async () => {
    let calls = 0;
    const perform = async () => ({ output: { calls: ++calls }, cached: false });
    const first = await runner();
    expect(await first.call('get_video', 'v1', {}, price, perform)).toEqual({ kind: 'completed', output: { calls: 1 } });
    const resumed = await runner();
    expect(resumed.reusedSteps).toEqual(['get_video:v1']);
    expect(await resumed.call('get_video', 'v1', {}, price, perform)).toEqual({ kind: 'completed', output: { calls: 1 } });
    expect(calls).toBe(1);
    const steps = await createStepsRepo(store).ofRun(run._id);
    expect(steps.map((step) => [step.key, step.credits])).toEqual([['get_video:v1', 3]]);
  });

  it('records a failed call at no cost, and charges the cached price when the answer was saved', async () => {
    const tools = await runner();
    const failed = await tools.call('get_transcript', 'v1', {}, price, async () => {
      throw new Error('no answer');
    });
    expect(failed).toMatchObject({ kind: 'failed', code: 'SERVICE_UNAVAILABLE' });
    await tools.call('get_video', 'v2', {}, price, async () => ({ output: 1, cached: true }));
    const steps = await createStepsRepo(store).ofRun(run._id);
    expect(steps.map((step) => [step.key, step.status, step.credits])).toEqual([
      ['get_transcript:v1', 'failed', 0],
      ['get_video:v2', 'completed', 1],
    ]);
  });

  it('refuses a call past the credit budget, the tool-call limit or the wall time, and says which', async () => {
    const perform = async () => ({ output: 1, cached: false });
    const byCredits = await runner({ maxToolCalls: 100 });
    for (const key of ['a', 'b', 'c']) await byCredits.call('get_video', key, {}, price, perform);
    // 9 of 10 credits used: the next 3-credit call does not fit.
    expect(await byCredits.call('get_video', 'd', {}, price, perform)).toEqual({ kind: 'stopped', reason: 'CREDIT_BUDGET_EXHAUSTED' });
    expect(byCredits.stoppedBy).toBe('CREDIT_BUDGET_EXHAUSTED');

    const byCount = await runner({ creditBudget: 100 });
    expect(await byCount.call('get_video', 'e', {}, price, perform)).toEqual({ kind: 'stopped', reason: 'TOOL_CALL_LIMIT' });

    const byTime = await runner({ creditBudget: 100, maxToolCalls: 100 });
    now += limits.maxWallMs;
    expect(await byTime.call('get_video', 'f', {}, price, perform)).toEqual({ kind: 'stopped', reason: 'RUN_TIME_LIMIT' });
  });

  it('persists a transcript analysis as a free analyze:<videoId> step outside the tool-call limit, reused on resume', async () => {
    let analyses = 0;
    const perform = async () => ({ findings: [], analyses: ++analyses });
    const first = await runner({ maxToolCalls: 1 });
    await first.call('get_transcript', 'v1', {}, price, async () => ({ output: [], cached: false }));
    // The one tool call allowed is used; an analysis is not a tool call, so it still runs.
    expect(await first.analyze('v1', { videoId: 'v1' }, perform)).toEqual({ kind: 'completed', output: { findings: [], analyses: 1 } });

    const resumed = await runner({ maxToolCalls: 1 });
    expect(await resumed.analyze('v1', { videoId: 'v1' }, perform)).toEqual({ kind: 'completed', output: { findings: [], analyses: 1 } });
    expect(analyses).toBe(1);
    const steps = await createStepsRepo(store).ofRun(run._id);
    // Both finished at the same (test clock) moment: listed by id.
    expect(steps.map((step) => [step.key, step.kind, step.tool, step.credits])).toEqual([
      ['analyze:v1', 'transcript_analysis', undefined, 0],
      ['get_transcript:v1', 'tool_call', 'get_transcript', 3],
    ]);
    expect(tallyOf(steps)).toEqual({ modelStepCount: 0, toolCallCount: 1, creditsCharged: 3 });

    now += limits.maxWallMs;
    expect(await resumed.analyze('v2', {}, perform)).toEqual({ kind: 'stopped', reason: 'RUN_TIME_LIMIT' });
  });

  it('stops with RunNoLongerActive once the run has been cancelled', async () => {
    const tools = await runner();
    await createRunsRepo(store).end(run._id, { status: 'cancelled', creditsCharged: 0 }, startedAt);
    await expect(tools.call('get_video', 'v', {}, price, async () => ({ output: 1, cached: false }))).rejects.toBeInstanceOf(
      RunNoLongerActive,
    );
  });
});
