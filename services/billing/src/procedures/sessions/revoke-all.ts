import { revokeAllSessionsInputSchema } from '@vrs/contracts';
import { procedure, requestLogFields } from '@vrs/kit';
import { z } from 'zod';
import type { BillingDeps } from '../../billing-deps';

/** Ends every live session of the account, but `exceptSessionId` when given (password reset, account deletion). */
export function revokeAllSessions({ repo, logger }: BillingDeps) {
  return procedure
    .input(revokeAllSessionsInputSchema)
    .output(z.object({ revoked: z.number().int().min(0) }))
    .mutation(async ({ input: { accountId, exceptSessionId }, ctx }) => {
      const revoked = await repo.sessions.revokeAll(accountId, exceptSessionId);
      logger.info({ accountId, revoked, ...requestLogFields(ctx) }, 'sessions revoked');
      return { revoked };
    });
}
