import type { AgentsDeps } from '../agents-deps';
import type { RunDoc, StoredResult } from '../repo/runs-repo';
import { tallyOf } from '../repo/steps-repo';

type EndRunDeps = Pick<AgentsDeps, 'runs' | 'steps' | 'runEvents' | 'sessions' | 'billing' | 'now'>;

/**
 * Settles the run's credit hold for what its steps cost, then publishes its end event and `settled`,
 * which makes the ended status visible (ADR 0025): a client never sees an ended run with credits
 * still held. Billing's settle is idempotent, so settling again after a crash charges nothing more.
 */
export async function settleRun(deps: Pick<EndRunDeps, 'runs' | 'billing' | 'runEvents' | 'now'>, run: RunDoc): Promise<void> {
  const charged = Math.min(run.billing?.creditsCharged ?? 0, run.creditBudget);
  const settlement = await deps.billing.credits.settle.mutate({ reservationId: run.reservationId, amount: charged });
  if ((await deps.runEvents.endSeq(run._id)) === undefined) {
    const { status, result, error } = run;
    await deps.runEvents.append(
      run._id,
      'status',
      { status, ...(result ? { outcome: result.outcome } : {}), ...(error ? { error } : {}) },
      new Date(deps.now()).toISOString(),
    );
  }
  await deps.runs.markSettled(run._id, settlement.balance);
}

/**
 * Ends an active run (the conditional update decides, so of a cancel and the executor only one ends
 * it), frees its session and settles its hold. Null when the run had already ended.
 */
export async function endRun(
  deps: EndRunDeps,
  runId: string,
  ending: { status: 'completed' | 'failed' | 'cancelled'; result?: StoredResult; error?: string },
): Promise<RunDoc | null> {
  const { creditsCharged } = tallyOf(await deps.steps.ofRun(runId));
  const at = new Date(deps.now()).toISOString();
  const ended = await deps.runs.end(runId, { ...ending, creditsCharged }, at);
  if (!ended) return null;
  // Independent: the session is free for its next turn whether or not billing answers at once.
  await Promise.all([deps.sessions.release(ended.sessionId, runId, at), settleRun(deps, ended)]);
  return ended;
}
