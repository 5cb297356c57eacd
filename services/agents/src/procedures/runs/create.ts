import { agentsRunRequested, createAgentRunInputSchema, type AgentRunAdmission } from '@vrs/contracts';
import { AppError, forRequest, procedure, requestLogFields } from '@vrs/kit';
import type { AgentsDeps } from '../../agents-deps';
import { failureOf } from '../../clients';
import { endRun } from '../../execution/end-run';
import type { RunDoc } from '../../repo/runs-repo';
import { fingerprintOf, runIdsOf } from './run-ids';

/** A session held by a run that never got written (its admission died midway) is freed after this long. */
const abandonedClaimMs = 60_000;

const admissionOf = (run: RunDoc): AgentRunAdmission => ({
  runId: run._id,
  sessionId: run.sessionId,
  userMessageId: run.userMessageId,
  agentMessageId: run.agentMessageId,
  conversationTurn: run.conversationTurn,
  status: 'pending',
  creditsHeld: run.creditBudget,
});

/**
 * Admits a run (ADR 0025): access, then the Idempotency-Key replay, then the credit budget held with
 * billing, the session's next turn taken (409 while its previous run is active), the run written as
 * `pending` and its work event published. Whatever fails after the hold gives the hold back.
 */
export const createAgentRun = (unscoped: AgentsDeps) =>
  procedure
    .input(createAgentRunInputSchema)
    .mutation(async ({ input, ctx }): Promise<{ admission: AgentRunAdmission; replayed: boolean; balanceAfterHold: number }> => {
      const deps = { ...unscoped, billing: forRequest(unscoped.billing, ctx), research: forRequest(unscoped.research, ctx) };
      const { runs, sessions, runEvents, billing, bus, research, settings } = deps;
      await requireAgentAccess(deps, input);
      const { accountId, message, sessionId, projectId, route, idempotencyKey } = input;
      const ids = runIdsOf(accountId, idempotencyKey);
      const fingerprint = idempotencyKey === undefined ? undefined : fingerprintOf({ message, sessionId, projectId, route });
      if (fingerprint) {
        const earlier = await runs.findById(ids.runId);
        if (earlier) {
          if (earlier.fingerprint !== fingerprint) throw new AppError('IDEMPOTENCY_KEY_REUSED');
          return { admission: admissionOf(earlier), replayed: true, balanceAfterHold: earlier.balanceAtAdmission };
        }
      }
      if (sessionId && !(await sessions.findOwned(accountId, sessionId))) throw new AppError('AGENT_SESSION_NOT_FOUND');
      if (projectId) {
        await research.projects.get.query({ accountId, projectId }).catch((error: unknown) => {
          throw new AppError(failureOf(error).code === 'PROJECT_NOT_FOUND' ? 'PROJECT_NOT_FOUND' : 'SERVICE_UNAVAILABLE');
        });
      }
      const hold = await billing.credits.reserve.mutate({
        accountId,
        amount: settings.limits.creditBudget,
        operation: 'createAgentRun',
        requestId: input.requestId,
      });
      const at = new Date(deps.now()).toISOString();
      try {
        const targetSession = sessionId ?? ids.newSessionId;
        let claim = await sessions.claim(accountId, targetSession, ids.runId, message, sessionId === undefined, at);
        if (claim.kind === 'busy' && (await isAbandoned(deps, claim.activeRunId, claim.updatedAt))) {
          await sessions.release(targetSession, claim.activeRunId, at);
          claim = await sessions.claim(accountId, targetSession, ids.runId, message, false, at);
        }
        if (claim.kind === 'unknown') throw new AppError('AGENT_SESSION_NOT_FOUND');
        if (claim.kind === 'busy') {
          // The same key's first request is still being admitted.
          if (fingerprint && claim.activeRunId === ids.runId) throw new AppError('IDEMPOTENCY_KEY_IN_USE');
          throw new AppError('AGENT_RUN_IN_PROGRESS', undefined, { activeRunId: claim.activeRunId });
        }
        const run: RunDoc = {
          _id: ids.runId,
          accountId,
          sessionId: targetSession,
          userMessageId: ids.userMessageId,
          agentMessageId: ids.agentMessageId,
          conversationTurn: claim.turn,
          message,
          context: claim.context,
          options: route ?? {},
          ...(projectId ? { projectId } : {}),
          status: 'pending',
          reservationId: hold.reservationId,
          creditBudget: settings.limits.creditBudget,
          balanceAtAdmission: hold.balance,
          settled: false,
          ...(fingerprint ? { fingerprint } : {}),
          eventSeq: 0,
          createdAt: at,
          updatedAt: at,
        };
        await runs.insert(run);
        await runEvents.append(run._id, 'status', { status: 'pending' }, at);
        try {
          await bus.publish(
            agentsRunRequested,
            { accountId, sessionId: targetSession, runId: run._id },
            { eventId: run._id, requestId: ctx.requestId, trace: ctx.trace },
          );
        } catch (error) {
          deps.logger.error({ err: error, runId: run._id, ...requestLogFields(ctx) }, 'agent run could not be queued; ended as failed');
          await endRun(deps, run._id, { status: 'failed', error: 'The run could not be queued for execution.' });
          throw new AppError('SERVICE_UNAVAILABLE', 'The run could not be queued; nothing was charged. Retry shortly.');
        }
        return { admission: admissionOf(run), replayed: false, balanceAfterHold: hold.balance };
      } catch (error) {
        // Nothing ran: the whole hold goes back. (A run already written stays; its work event or a cancel ends it.)
        if (!(await runs.findById(ids.runId))) await billing.credits.refund.mutate({ reservationId: hold.reservationId });
        throw error;
      }
    });

/** The run holding a session ended (its release was lost) or was never written: the session is free. */
async function isAbandoned({ runs, now }: AgentsDeps, activeRunId: string, claimedAt: string): Promise<boolean> {
  const active = await runs.findById(activeRunId);
  if (active) return active.status !== 'pending' && active.status !== 'running';
  return now() - Date.parse(claimedAt) > abandonedClaimMs;
}

/**
 * Agents are off unless enabled; then an account must be on the configured allowlist (its email
 * verified, if any), on the stored one (`npm run agents:allow`), or a demo user while demo access is
 * on. Checked before anything is reserved, so a refusal costs nothing.
 */
async function requireAgentAccess({ settings, access, billing }: AgentsDeps, caller: { accountId: string; demo: boolean }): Promise<void> {
  if (!settings.enabled) throw new AppError('AGENTS_NOT_ENABLED', 'Agent runs are not enabled on this service.');
  if (caller.demo && settings.demoAccess) return;
  if (settings.allowlist.includes(caller.accountId)) {
    // The configured list is checked as the operator script checks: an email address must be verified.
    const account = await billing.accounts.get.query({ accountId: caller.accountId });
    if (!account.email || account.verified) return;
    throw new AppError('AGENTS_NOT_ENABLED', 'Agent runs are enabled for this account once its email address is verified.');
  }
  if (await access.isAllowed(caller.accountId)) return;
  throw new AppError('AGENTS_NOT_ENABLED', 'Agent runs are not enabled for this account (it is not on the allowlist).');
}
