import type { AgentToolName } from '@vrs/contracts';
import type { AgentsDeps } from '../agents-deps';
import type { RunLimits } from '../config';
import { failureOf } from '../clients';
import type { StopReason } from '../planner/gathered';
import type { RunDoc } from '../repo/runs-repo';
import { tallyOf, type StepDoc, type StepKind } from '../repo/steps-repo';

/** The run was cancelled (or ended otherwise) while it was executing: stop without an answer. */
export class RunNoLongerActive extends Error {
  constructor(readonly runId: string) {
    super(`run ${runId} is no longer running`);
  }
}

/** The service is stopping: the run is handed back unacked, and a delivery elsewhere resumes it. */
export class RunHandedBack extends Error {}

export type ToolOutcome<T> =
  | { kind: 'completed'; output: T }
  | { kind: 'failed'; code: string; message: string }
  | { kind: 'stopped'; reason: StopReason };

export type ToolPrice = Record<'fresh' | 'cached', number>;

type ToolRunnerDeps = Pick<AgentsDeps, 'runs' | 'steps' | 'runEvents' | 'logger' | 'now'> & { limits: RunLimits; stopping: () => boolean };

/**
 * Makes a run's tool calls, each at most once: a call already persisted (by a delivery whose process
 * died) answers from its step, neither repeated nor charged. A new call is checked against the run's status
 * and budgets, then persisted with its price the moment it ends and announced on the run's events.
 */
export async function createToolRunner(deps: ToolRunnerDeps, run: RunDoc & { startedAt: string }) {
  const persisted = await deps.steps.ofRun(run._id);
  const prior = new Map(persisted.map((step) => [step.key, step]));
  let { toolCallCount: toolCalls, creditsCharged: committedCredits } = tallyOf(persisted);
  const deadline = Date.parse(run.startedAt) + deps.limits.maxWallMs;
  let stoppedBy: StopReason | undefined;

  function replay<T>(step: StepDoc, failed = { code: 'TOOL_FAILED', message: 'The tool call failed.' }): ToolOutcome<T> {
    return step.status === 'completed'
      ? { kind: 'completed', output: step.output as T }
      : { kind: 'failed', code: step.error?.code ?? failed.code, message: step.error?.message ?? failed.message };
  }

  async function timed<R>(perform: () => Promise<R>) {
    const started = deps.now();
    let ran: { ok: true; value: R } | { ok: false; error: unknown };
    try {
      ran = { ok: true, value: await perform() };
    } catch (error) {
      ran = { ok: false, error };
    }
    const finished = deps.now();
    const times = {
      startedAt: new Date(started).toISOString(),
      finishedAt: new Date(finished).toISOString(),
      elapsedMs: finished - started,
    };
    return { ...ran, times };
  }

  /** Before new work: a stopping service hands the run back, a run ended meanwhile stops here. */
  async function ensureActive(stepKey: string): Promise<void> {
    if (deps.stopping()) throw new RunHandedBack(`service stopping: run ${run._id} handed back before ${stepKey}`);
    const current = await deps.runs.findById(run._id);
    if (current?.status !== 'running') throw new RunNoLongerActive(run._id);
  }

  /** A tool call or an analysis, at most once: replayed when persisted, else checked, made, persisted. */
  async function step<T>(
    spec: { kind: StepKind; tool?: AgentToolName; stepKey: string; input: Record<string, unknown>; price: ToolPrice },
    perform: () => Promise<{ output: T; cached: boolean; charged?: boolean }>,
  ): Promise<ToolOutcome<T>> {
    const { kind, tool, stepKey, input, price } = spec;
    const done = prior.get(stepKey);
    if (done) return replay<T>(done);
    await ensureActive(stepKey);
    const isToolCall = kind === 'tool_call';
    const refusal: StopReason | undefined =
      deps.now() >= deadline
        ? 'RUN_TIME_LIMIT'
        : isToolCall && toolCalls >= deps.limits.maxToolCalls
          ? 'TOOL_CALL_LIMIT'
          : committedCredits + price.fresh > run.creditBudget
            ? 'CREDIT_BUDGET_EXHAUSTED'
            : undefined;
    if (refusal) {
      stoppedBy ??= refusal;
      return { kind: 'stopped', reason: refusal };
    }
    // Counted and held before the await, so calls made side by side respect the limits together.
    if (isToolCall) toolCalls++;
    committedCredits += price.fresh;
    const logged = isToolCall ? 'agent tool call' : 'agent transcript analysis';
    deps.logger.info({ runId: run._id, step: stepKey }, `${logged} started`);
    const ran = await timed(perform);
    const credits = !ran.ok || ran.value.charged === false ? 0 : ran.value.cached ? price.cached : price.fresh;
    committedCredits -= price.fresh - credits;
    const recordable: Omit<StepDoc, '_id'> = {
      runId: run._id,
      key: stepKey,
      kind,
      ...(tool ? { tool } : {}),
      input,
      ...(ran.ok
        ? { status: 'completed', output: ran.value.output, cached: ran.value.cached }
        : { status: 'failed', error: failureOf(ran.error), cached: false }),
      credits,
      ...ran.times,
    };
    const recorded = await persist(recordable, tool ? { tool } : {});
    deps.logger.info({ runId: run._id, step: stepKey, status: recorded.status, credits: recorded.credits }, `${logged} persisted`);
    return replay<T>(recorded);
  }

  async function persist(step: Omit<StepDoc, '_id'>, announced: Record<string, unknown>): Promise<StepDoc> {
    const recorded = await deps.steps.record(step);
    prior.set(step.key, recorded);
    await deps.runEvents.append(
      run._id,
      'step',
      {
        kind: recorded.kind,
        ...announced,
        key: recorded.key,
        status: recorded.status,
        credits: recorded.credits,
        elapsedMs: recorded.elapsedMs,
        ...(recorded.error ? { error: recorded.error } : {}),
      },
      recorded.finishedAt,
    );
    return recorded;
  }

  return {
    get stoppedBy() {
      return stoppedBy;
    },
    reusedSteps: [...prior.keys()],
    /** When the run's wall time ends (epoch ms): what bounds work that outlasts a single step's check. */
    deadline,

    /** One model step (`model:<n>`), at most once like a tool call; only the wall time bounds it (the run pays for its tools). */
    async modelStep<T>(
      index: number,
      perform: () => Promise<{ output: T; model: string }>,
    ): Promise<{ kind: 'completed'; output: T; model: string } | Exclude<ToolOutcome<T>, { kind: 'completed' }>> {
      const stepKey = `model:${index}`;
      const replayModel = (step: StepDoc) => {
        const outcome = replay<T>(step, { code: 'AI_UNAVAILABLE', message: 'The model did not answer.' });
        return outcome.kind === 'completed' ? { ...outcome, model: step.model ?? '' } : outcome;
      };
      const done = prior.get(stepKey);
      if (done) return replayModel(done);
      await ensureActive(stepKey);
      if (deps.now() >= deadline) {
        stoppedBy ??= 'RUN_TIME_LIMIT';
        return { kind: 'stopped', reason: 'RUN_TIME_LIMIT' };
      }
      const ran = await timed(perform);
      if (!ran.ok && (ran.error instanceof RunHandedBack || ran.error instanceof RunNoLongerActive)) throw ran.error;
      const step: Omit<StepDoc, '_id'> = {
        runId: run._id,
        key: stepKey,
        kind: 'model_step',
        input: { step: index },
        credits: 0,
        cached: false,
        ...(ran.ok
          ? { model: ran.value.model, status: 'completed', output: ran.value.output }
          : { status: 'failed', error: failureOf(ran.error) }),
        ...ran.times,
      };
      const output = step.output as { toolCalls?: Array<{ name: string }> } | undefined;
      const recorded = await persist(step, {
        ...(step.model ? { model: step.model } : {}),
        toolCalls: (output?.toolCalls ?? []).map((call) => call.name),
      });
      deps.logger.info({ runId: run._id, step: stepKey, status: recorded.status, model: recorded.model }, 'agent model step persisted');
      return replayModel(recorded);
    },

    /** A tool call, keyed `<tool>:<key>`: counted against the tool-call limit and charged its price. */
    call<T>(
      tool: AgentToolName,
      key: string,
      input: Record<string, unknown>,
      price: ToolPrice,
      /** `charged: false`: the call answered but delivered nothing billable (a storyboard that could not be read). */
      perform: () => Promise<{ output: T; cached: boolean; charged?: boolean }>,
    ): Promise<ToolOutcome<T>> {
      return step({ kind: 'tool_call', tool, stepKey: `${tool}:${key}`, input, price }, perform);
    },

    /** The transcript analyst's work on one video (`analyze:<videoId>`): persisted like a tool call, but free and not counted as one. */
    analyze<T>(videoId: string, input: Record<string, unknown>, perform: () => Promise<T>): Promise<ToolOutcome<T>> {
      return step({ kind: 'transcript_analysis', stepKey: `analyze:${videoId}`, input, price: { fresh: 0, cached: 0 } }, async () => ({
        output: await perform(),
        cached: false,
      }));
    },
  };
}

export type ToolRunner = Awaited<ReturnType<typeof createToolRunner>>;
