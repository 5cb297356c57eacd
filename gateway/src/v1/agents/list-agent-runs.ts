import { agentRunListSchema, listAgentRunsInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const listAgentRuns = protectedOperation({
  method: 'GET',
  path: '/agent/{sessionId}/runs',
  operationId: 'listAgentRuns',
  tags: ['Agents'],
  summary: "List a session's agent runs",
  description:
    'Newest first, in the compact format without details. Page with `limit` and `cursor`: pass each page’s `nextCursor` as `cursor` while `hasMore` is true. 404 for an unknown session or one of another account; 422 `INVALID_CURSOR` for a cursor this list did not return.',
  errorResponses: [...authenticatedErrors, 404, 422],
})
  .input(listAgentRunsInput)
  .output(agentRunListSchema)
  .query(({ ctx, input }) => ctx.services.agents.runs.list.query({ accountId: ctx.principal.accountId, ...input }));
