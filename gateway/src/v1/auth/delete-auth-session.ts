import { z } from 'zod';
import { deletedSchema } from '@vrs/contracts';
import { protectedProcedure } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const deleteAuthSession = protectedProcedure
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/auth/sessions/{sessionId}',
      operationId: 'deleteAuthSession',
      tags: ['Authentication'],
      summary: 'Sign a web or CLI session out (its token stops working within AUTH_CACHE_TTL_MS on every replica)',
      protect: true,
      errorResponses: [...authenticatedErrors, 404],
    },
  })
  .input(z.object({ sessionId: z.string().min(1).max(64) }))
  .output(deletedSchema)
  .mutation(async ({ ctx: { principal, services }, input }) => {
    await services.billing.sessions.revoke.mutate({ accountId: principal.accountId, sessionId: input.sessionId });
    return { id: input.sessionId, deleted: true as const };
  });
