import type { BillingClient } from '../clients';
import type { RunEventsRepo } from '../repo/run-events-repo';
import type { RunDoc, RunsRepo, StoredResult } from '../repo/runs-repo';
import type { SessionsRepo } from '../repo/sessions-repo';
import { tallyOf, type StepsRepo } from '../repo/steps-repo';

export interface EndRunDeps {
  runs: RunsRepo;
  steps: StepsRepo;
  runEvents: RunEventsRepo;
  sessions: SessionsRepo;
  billing: BillingClient;
  now: () => number;
}

/**
 * Settles the run's credit hold for what its steps cost (the rest goes back) and records the
 * balance. Billing's settle is idempotent for the same amount, so a redelivery that settles again
 * after a crash charges nothing more.
 */
export async function settleRun(deps: Pick<EndRunDeps, 'runs' | 'billing'>, run: RunDoc): Promise<void> {
  const charged = Math.min(run.billing?.creditsCharged ?? 0, run.creditBudget);
  const settlement = await deps.billing.credits.settle.mutate({ reservationId: run.reservationId, amount: charged });
  await deps.runs.markSettled(run._id, settlement.balance);
}

/**
 * Ends an active run (completed, failed or cancelled): the conditional update decides, so of a
 * cancel and the executor only one ends it. Then its event, the session freed for the next turn,
 * and the hold settled. Null when the run had already ended.
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
  await deps.runEvents.append(
    runId,
    'status',
    {
      status: ending.status,
      ...(ending.result ? { outcome: ending.result.outcome } : {}),
      ...(ending.error ? { error: ending.error } : {}),
    },
    at,
  );
  await deps.sessions.release(ended.sessionId, runId, at);
  await settleRun(deps, ended);
  return ended;
}
