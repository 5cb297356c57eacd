import { z } from 'zod';
import { agentRunListSchema } from '@vrs/contracts';
import { protectedProcedure } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const listAgentRuns = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/agent/{sessionId}/runs',
      operationId: 'listAgentRuns',
      tags: ['Agents'],
      summary: "List a session's agent runs",
      description:
        'Newest first, in the compact format without details. Page with `limit` and `startingAfter` (the `runId` of the last run of the previous page) while `hasMore` is true. 404 for an unknown session or one of another account.',
      protect: true,
      errorResponses: [...authenticatedErrors, 404, 422],
    },
    auth: { scopes: ['data:read'] },
  })
  .input(
    z.object({
      sessionId: z.uuid().describe('UUID returned by agent admission.'),
      limit: z.number().int().min(1).max(100).default(50),
      startingAfter: z.string().min(1).max(100).optional(),
    }),
  )
  .output(agentRunListSchema)
  .query(({ ctx, input }) => ctx.services.agents.runs.list.query({ accountId: ctx.principal.accountId, ...input }));
