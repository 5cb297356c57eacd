import { revokeSessionInputSchema } from '@vrs/contracts';
import { AppError, procedure, requestLogFields } from '@vrs/kit';
import { z } from 'zod';
import type { BillingDeps } from '../../billing-deps';

/**
 * Ends one session of the account. A session of another account, an unknown one, or one already
 * ended is SESSION_NOT_FOUND (ADR 0020: deleting again is a 404), and nothing changes.
 */
export function revokeSession({ repo, logger }: BillingDeps) {
  return procedure
    .input(revokeSessionInputSchema)
    .output(z.object({ revoked: z.literal(true) }))
    .mutation(async ({ input: { accountId, sessionId }, ctx }) => {
      if (!(await repo.sessions.revoke(accountId, sessionId))) throw new AppError('SESSION_NOT_FOUND');
      logger.info({ accountId, sessionId, ...requestLogFields(ctx) }, 'session revoked');
      return { revoked: true as const };
    });
}
