import type { agentsRunRequested } from '@vrs/contracts';
import type { EventHandler } from '@vrs/bus';
import type { AgentsDeps } from '../agents-deps';
import { endRun, settleRun } from '../execution/end-run';
import { gather } from '../execution/gather';
import { addStoryboardEvidence } from '../execution/storyboard';
import { createToolRunner, RunHandedBack, RunNoLongerActive } from '../execution/tool-runner';
import { classify } from '../planner/classify';
import { composeAnswer } from '../planner/compose-answer';

/**
 * Executes a run from the work queue, or resumes it: a delivery after a crash (the event was never
 * acked) finds the run `running` with some steps persisted, walks the same plan and reuses those
 * steps. A run that has ended is only settled if its settlement was interrupted.
 */
export function createExecuteRunHandler(deps: AgentsDeps & { stopping: () => boolean }): EventHandler<typeof agentsRunRequested> {
  const { runs, runEvents, logger } = deps;
  const iso = () => new Date(deps.now()).toISOString();
  return async ({ data }) => {
    const { runId } = data;
    const found = await runs.findById(runId);
    if (!found) {
      logger.warn({ runId }, 'run requested that this store does not have; acknowledged');
      return;
    }
    if (found.status !== 'pending' && found.status !== 'running') {
      if (!found.settled) await settleRun(deps, found);
      return;
    }
    if (found.status === 'pending' && (await runs.markRunning(runId, iso()))) {
      await runEvents.append(runId, 'status', { status: 'running' }, iso());
    }
    const run = await runs.findById(runId);
    if (run?.status !== 'running' || !run.startedAt) {
      if (run && !run.settled && run.status !== 'pending' && run.status !== 'running') await settleRun(deps, run);
      return;
    }
    const classification = classify({ message: run.message, context: run.context, options: run.options });
    if (!run.route) {
      await runs.setRoute(runId, classification.route, iso());
      await runEvents.append(runId, 'step', { kind: 'classification', route: classification.route }, iso());
    }
    let ending: Parameters<typeof endRun>[2];
    try {
      const runner = await createToolRunner({ ...deps, limits: deps.settings.limits }, { ...run, startedAt: run.startedAt });
      if (runner.reusedSteps.length > 0)
        logger.info({ runId, reusedSteps: runner.reusedSteps }, 'agent run resumed from its persisted steps');
      const gathered = await gather(deps, runner, run, classification);
      await addStoryboardEvidence(deps, runner, run, classification, gathered);
      ending = { status: 'completed', result: composeAnswer(classification, gathered) };
    } catch (error) {
      if (error instanceof RunHandedBack) throw error;
      if (error instanceof RunNoLongerActive) {
        // Cancelled meanwhile: the cancel ended it; make sure its hold is settled.
        const ended = await runs.findById(runId);
        if (ended && !ended.settled && ended.status !== 'running') await settleRun(deps, ended);
        return;
      }
      logger.error({ err: error, runId }, 'agent run failed');
      ending = { status: 'failed', error: 'The run failed unexpectedly; credits were charged only for the tool calls it completed.' };
    }
    // Outside the try: a failed settlement throws, the event is redelivered and the ended run settled then.
    const ended = await endRun(deps, runId, ending);
    if (ended) {
      logger.info({ runId, status: ending.status, outcome: ending.result?.outcome }, 'agent run ended');
      return;
    }
    const other = await runs.findById(runId);
    if (other && !other.settled) await settleRun(deps, other);
  };
}
