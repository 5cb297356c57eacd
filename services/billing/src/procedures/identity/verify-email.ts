import { accountRefSchema, linkTokenInputSchema } from '@vrs/contracts';
import { AppError, procedure, requestLogFields } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';
import { hashToken } from '../../identity/tokens';

/** Follows a verification link once: LINK_INVALID when unknown, used, replaced or its account deleted; LINK_EXPIRED when too old. */
export function verifyEmail({ repo, logger }: BillingDeps) {
  return procedure
    .input(linkTokenInputSchema)
    .output(accountRefSchema)
    .mutation(async ({ input, ctx }) => {
      const link = await repo.emailLinks.consume(hashToken(input.token), 'verify-email');
      if (link === 'invalid') throw new AppError('LINK_INVALID');
      if (link === 'expired') throw new AppError('LINK_EXPIRED');
      // A link of an account deleted since it was sent verifies nothing.
      if (!(await repo.accounts.markEmailVerified(link.accountId, new Date(repo.clock()).toISOString())))
        throw new AppError('LINK_INVALID');
      logger.info({ accountId: link.accountId, ...requestLogFields(ctx) }, 'email verified');
      return { accountId: link.accountId };
    });
}
