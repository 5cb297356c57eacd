import { activeAgentRunStatuses, type billingAccountDeleted } from '@vrs/contracts';
import type { EventHandler } from '@vrs/bus';
import type { AgentsDeps } from '../agents-deps';
import { tallyOf } from '../repo/steps-repo';

/** Runs handled per store read. */
const runBatch = 50;

export type DeleteAccountDataDeps = Pick<AgentsDeps, 'runs' | 'steps' | 'runEvents' | 'sessions' | 'access' | 'logger' | 'now'>;

/**
 * Agents' part of an account's deletion (ADR 0033). Active runs are cancelled first, as a cancel
 * does, so the executor stops before its next tool call; billing releases their holds. Then every
 * run with its steps and events, the sessions and the allowlist entry go. A redelivery is harmless.
 */
export function createDeleteAccountDataHandler(deps: DeleteAccountDataDeps): EventHandler<typeof billingAccountDeleted> {
  const { runs, steps, runEvents, logger } = deps;
  return async ({ data: { accountId } }) => {
    const at = () => new Date(deps.now()).toISOString();
    let cancelled = 0;
    for (;;) {
      const active = await runs.ofAccount(accountId, runBatch, activeAgentRunStatuses);
      for (const run of active) {
        const { creditsCharged } = tallyOf(await steps.ofRun(run._id));
        if (await runs.end(run._id, { status: 'cancelled', creditsCharged }, at())) cancelled++;
      }
      if (active.length < runBatch) break;
    }
    let deletedRuns = 0;
    for (;;) {
      const batch = await runs.ofAccount(accountId, runBatch);
      for (const run of batch) {
        await steps.deleteOfRun(run._id);
        await runEvents.deleteOfRun(run._id);
        await runs.deleteById(run._id);
        // Again after the run: an executor between its check and its write may have added one.
        await steps.deleteOfRun(run._id);
        await runEvents.deleteOfRun(run._id);
        deletedRuns++;
      }
      if (batch.length < runBatch) break;
    }
    const sessions = await deps.sessions.deleteAllOfAccount(accountId);
    await deps.access.set(accountId, false, at());
    logger.info({ accountId, cancelled, runs: deletedRuns, sessions }, "deleted account's agent sessions and runs removed");
  };
}
