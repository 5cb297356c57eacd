import type { AgentToolName } from '@vrs/contracts';
import type { Logger } from '@vrs/kit';
import type { RunLimits } from '../config';
import { failureOf } from '../clients';
import type { StopReason } from '../planner/gathered';
import type { RunEventsRepo } from '../repo/run-events-repo';
import type { RunDoc, RunsRepo } from '../repo/runs-repo';
import type { StepDoc, StepsRepo } from '../repo/steps-repo';

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

export interface ToolPrice {
  fresh: number;
  cached: number;
}

export interface ToolRunnerDeps {
  runs: RunsRepo;
  steps: StepsRepo;
  runEvents: RunEventsRepo;
  limits: RunLimits;
  logger: Logger;
  now: () => number;
  stopping: () => boolean;
}

/**
 * Makes a run's tool calls, each at most once: a call whose step is already persisted (an earlier
 * delivery made it before its process died) answers from that step, neither repeated nor charged
 * again. A new call is checked against the run's status and budgets first, then persisted with its
 * output and price the moment it ends, and announced on the run's event stream.
 */
export async function createToolRunner(deps: ToolRunnerDeps, run: RunDoc & { startedAt: string }) {
  const prior = new Map((await deps.steps.ofRun(run._id)).map((step) => [step.key, step]));
  let toolCalls = prior.size;
  let committedCredits = [...prior.values()].reduce((sum, step) => sum + step.credits, 0);
  const deadline = Date.parse(run.startedAt) + deps.limits.maxWallMs;
  let stoppedBy: StopReason | undefined;

  function replay<T>(step: StepDoc): ToolOutcome<T> {
    return step.status === 'completed'
      ? { kind: 'completed', output: step.output as T }
      : { kind: 'failed', code: step.error?.code ?? 'TOOL_FAILED', message: step.error?.message ?? 'The tool call failed.' };
  }

  return {
    get stoppedBy() {
      return stoppedBy;
    },
    reusedSteps: [...prior.keys()],

    async call<T>(
      tool: AgentToolName,
      key: string,
      input: Record<string, unknown>,
      price: ToolPrice,
      /** `charged: false`: the call answered but delivered nothing billable (a storyboard that could not be read). */
      perform: () => Promise<{ output: T; cached: boolean; charged?: boolean }>,
    ): Promise<ToolOutcome<T>> {
      const stepKey = `${tool}:${key}`;
      const done = prior.get(stepKey);
      if (done) return replay<T>(done);
      if (deps.stopping()) throw new RunHandedBack(`service stopping: run ${run._id} handed back before ${stepKey}`);
      const current = await deps.runs.findById(run._id);
      if (current?.status !== 'running') throw new RunNoLongerActive(run._id);
      const refusal: StopReason | undefined =
        deps.now() >= deadline
          ? 'RUN_TIME_LIMIT'
          : toolCalls >= deps.limits.maxToolCalls
            ? 'TOOL_CALL_LIMIT'
            : committedCredits + price.fresh > run.creditBudget
              ? 'CREDIT_BUDGET_EXHAUSTED'
              : undefined;
      if (refusal) {
        stoppedBy ??= refusal;
        return { kind: 'stopped', reason: refusal };
      }
      // Counted and held before the await, so calls made side by side respect the limits together.
      toolCalls++;
      committedCredits += price.fresh;
      deps.logger.info({ runId: run._id, step: stepKey }, 'agent tool call started');
      const startedAt = deps.now();
      let step: Omit<StepDoc, '_id'>;
      const common = {
        runId: run._id,
        key: stepKey,
        kind: 'tool_call' as const,
        tool,
        input,
        startedAt: new Date(startedAt).toISOString(),
      };
      try {
        const { output, cached, charged = true } = await perform();
        const credits = !charged ? 0 : cached ? price.cached : price.fresh;
        committedCredits -= price.fresh - credits;
        const finishedAt = deps.now();
        step = {
          ...common,
          status: 'completed',
          output,
          credits,
          cached,
          finishedAt: new Date(finishedAt).toISOString(),
          elapsedMs: finishedAt - startedAt,
        };
      } catch (error) {
        committedCredits -= price.fresh;
        const failure = failureOf(error);
        const finishedAt = deps.now();
        step = {
          ...common,
          status: 'failed',
          error: failure,
          credits: 0,
          cached: false,
          finishedAt: new Date(finishedAt).toISOString(),
          elapsedMs: finishedAt - startedAt,
        };
      }
      const recorded = await deps.steps.record(step);
      prior.set(stepKey, recorded);
      await deps.runEvents.append(
        run._id,
        'step',
        {
          kind: recorded.kind,
          tool,
          key: stepKey,
          status: recorded.status,
          credits: recorded.credits,
          elapsedMs: recorded.elapsedMs,
          ...(recorded.error ? { error: recorded.error } : {}),
        },
        recorded.finishedAt,
      );
      deps.logger.info({ runId: run._id, step: stepKey, status: recorded.status, credits: recorded.credits }, 'agent tool call persisted');
      return replay<T>(recorded);
    },
  };
}

export type ToolRunner = Awaited<ReturnType<typeof createToolRunner>>;
