import type { agentsRunRequested } from '@vrs/contracts';
import type { EventHandler } from '@vrs/bus';
import { forRequest, requestLogFields, type TraceContext } from '@vrs/kit';
import type { AgentsDeps } from '../agents-deps';
import { endRun, settleRun } from '../execution/end-run';
import { gather } from '../execution/gather';
import { runModelLoop } from '../execution/model-loop';
import { storyboardWithoutModel } from '../execution/storyboard';
import { createToolRunner, RunHandedBack, RunNoLongerActive, type ToolRunner } from '../execution/tool-runner';
import { classify, type Classification } from '../planner/classify';
import { composeAnswer, composeFindingsAnswer, extractiveLabels } from '../planner/compose-answer';
import { composeModelAnswer } from '../planner/compose-model-answer';
import type { RunDoc, StoredResult } from '../repo/runs-repo';

/** Routes a model researches with tools; clarification and out-of-scope answer without tools either way. */
const modelRoutes = new Set(['topic_research', 'video_question', 'video_comparison', 'channel_question']);

/**
 * The answer (ADR 0026): with a model, the model loop's text held to the evidence, or when a budget or
 * the model's failure ended it, the findings gathered so far, else extractive quotes; without a
 * model, the deterministic planner.
 */
async function answer(
  deps: AgentsDeps & { trace?: TraceContext },
  runner: ToolRunner,
  run: RunDoc,
  classification: Classification,
): Promise<StoredResult> {
  const { llm } = deps;
  if (llm && modelRoutes.has(classification.route.route)) {
    const loop = await runModelLoop({ ...deps, llm, limits: deps.settings.limits }, runner, run, classification);
    if (loop.answer !== undefined)
      return composeModelAnswer(classification, loop.gathered, loop.evidence, loop.answer, loop.analystWarnings);
    if (loop.findings.length > 0)
      return composeFindingsAnswer(classification, loop.gathered, { findings: loop.findings, warnings: loop.analystWarnings });
    const gathered = { ...loop.gathered, warnings: [...loop.gathered.warnings, ...loop.analystWarnings] };
    return composeAnswer(classification, gathered, extractiveLabels.modelUnfinished);
  }
  const gathered = await gather(deps, runner, run, classification);
  // Storyboards are read in the model loop (get_storyboard); without a model there is nothing to read them.
  if (classification.route.useStoryboard && !llm) gathered.warnings.push(storyboardWithoutModel);
  return composeAnswer(classification, gathered);
}

/**
 * Executes a run from the work queue, or resumes it: a delivery after a crash (the event was never
 * acked) finds the run `running` with some steps persisted, walks the same plan and reuses those
 * steps. A run that has ended is only settled if its settlement was interrupted.
 */
export function createExecuteRunHandler(unscoped: AgentsDeps & { stopping: () => boolean }): EventHandler<typeof agentsRunRequested> {
  const { runs, runEvents } = unscoped;
  const iso = () => new Date(unscoped.now()).toISOString();
  return async ({ data }, context) => {
    // The run's tool calls, settlement and log lines carry the id of the request that created it.
    const deps = {
      ...unscoped,
      provider: forRequest(unscoped.provider, context),
      research: forRequest(unscoped.research, context),
      billing: forRequest(unscoped.billing, context),
      trends: forRequest(unscoped.trends, context),
      logger: unscoped.logger.child(requestLogFields(context)),
      // The model's steps are spans under the run's consumer span (ADR 0117).
      trace: context.trace,
    };
    const { logger } = deps;
    const { runId } = data;
    // A run never becomes active again once ended, so one read as ended stays so.
    const settleIfEnded = async (run: RunDoc | null) => {
      if (run && !run.settled && run.status !== 'pending' && run.status !== 'running') await settleRun(deps, run);
    };
    const found = await runs.findById(runId);
    if (!found) {
      logger.warn({ runId }, 'run requested that this store does not have; acknowledged');
      return;
    }
    if (found.status !== 'pending' && found.status !== 'running') return settleIfEnded(found);
    if (found.status === 'pending' && (await runs.markRunning(runId, iso()))) {
      await runEvents.append(runId, 'status', { status: 'running' }, iso());
    }
    const run = await runs.findById(runId);
    if (run?.status !== 'running' || !run.startedAt) return settleIfEnded(run);
    const classification = classify(run);
    if (!run.route) {
      await runs.setRoute(runId, classification.route, iso());
      await runEvents.append(runId, 'step', { kind: 'classification', route: classification.route }, iso());
    }
    let ending: Parameters<typeof endRun>[2];
    try {
      const runner = await createToolRunner({ ...deps, limits: deps.settings.limits }, { ...run, startedAt: run.startedAt });
      if (runner.reusedSteps.length > 0)
        logger.info({ runId, reusedSteps: runner.reusedSteps }, 'agent run resumed from its persisted steps');
      ending = { status: 'completed', result: await answer(deps, runner, { ...run, startedAt: run.startedAt }, classification) };
    } catch (error) {
      if (error instanceof RunHandedBack) throw error;
      if (error instanceof RunNoLongerActive) {
        // Cancelled meanwhile: the cancel ended it; make sure its hold is settled.
        return settleIfEnded(await runs.findById(runId));
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
    await settleIfEnded(await runs.findById(runId));
  };
}
