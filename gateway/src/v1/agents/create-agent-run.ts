import { agentRunAdmissionSchema, createAgentRunInput } from '@vrs/contracts';
import { idempotencyHeaders, idempotencyKeyOf } from '../../idempotency/idempotency-key';
import { protectedOperation } from '../../trpc';
import { meteredErrors } from '../errors';

export const createAgentRun = protectedOperation({
  method: 'POST',
  path: '/agent/runs',
  operationId: 'createAgentRun',
  tags: ['Agents'],
  summary: 'Admit a durable agent run',
  description:
    "Admits a research question as a run that executes in the background: without `sessionId` it opens a new session, with one of yours it is that session's next turn (earlier turns are its context). Answers 202 with the ids and `creditsHeld`, and `X-Credits-Charged: 0` and `X-Credits-Remaining` (the balance the hold left); follow the run with `GET /v1/agent/{sessionId}/runs/{runId}` or its event stream. The run's credit budget is held now and each tool call is charged as it completes; what is not used goes back when the run ends. 403 `AGENTS_NOT_ENABLED` unless agents are enabled for the account (nothing is charged); 409 `AGENT_RUN_IN_PROGRESS` while the session's previous run is pending or running; 404 for an unknown session or project. Accepts `Idempotency-Key`.",
  successDescription: 'The run, admitted (or, for a replayed Idempotency-Key, the first response).',
  requestHeaders: idempotencyHeaders(),
  errorResponses: [...meteredErrors, 404, 409, 422],
})
  .input(createAgentRunInput)
  .output(agentRunAdmissionSchema)
  .mutation(async ({ ctx, input }) => {
    const { admission, balanceAfterHold } = await ctx.services.agents.runs.create.mutate({
      ...input,
      accountId: ctx.principal.accountId,
      demo: ctx.principal.scheme === 'demoUser',
      idempotencyKey: idempotencyKeyOf(ctx),
      requestId: ctx.requestId,
    });
    // As the import's 202 (ADR 0092): nothing charged yet, the balance the hold left.
    ctx.credits.charged = 0;
    ctx.credits.remaining = balanceAfterHold;
    return admission;
  });
