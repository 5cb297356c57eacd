import { compactAgentRunSchema, cancelAgentRunInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const cancelAgentRun = protectedOperation({
  method: 'POST',
  path: '/agent/{sessionId}/runs/{runId}/cancel',
  operationId: 'cancelAgentRun',
  tags: ['Agents'],
  summary: 'Cancel an agent run',
  description:
    'A pending or running run becomes `cancelled`: it stops before its next tool call, is charged only for the tool calls it completed, and frees its session for the next turn. Cancelling a cancelled run answers it again; a completed or failed run is 409 `AGENT_RUN_NOT_CANCELLABLE`.',
  errorResponses: [...authenticatedErrors, 404, 409, 422],
})
  .input(cancelAgentRunInput)
  .output(compactAgentRunSchema)
  .mutation(({ ctx, input }) => ctx.services.agents.runs.cancel.mutate({ accountId: ctx.principal.accountId, ...input }));
