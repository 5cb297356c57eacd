import { accountRefSchema, resetPasswordInputSchema } from '@vrs/contracts';
import { AppError, procedure, requestLogFields } from '@vrs/kit';
import { identityPolicyOf, type BillingDeps } from '../../billing-deps';
import { hashPassword } from '../../identity/passwords';
import { hashToken } from '../../identity/tokens';

/**
 * Sets a new password through a reset link (once; LINK_INVALID / LINK_EXPIRED otherwise) and signs
 * out every session of the account: whoever knew the old password is out. API keys survive it
 * unless `revokeApiKeys` asks to revoke them too (ADR 0082). Following the link
 * proves the address, so an unverified account becomes verified.
 */
export function resetPassword({ repo, config, logger }: BillingDeps) {
  const policy = identityPolicyOf(config);
  return procedure
    .input(resetPasswordInputSchema)
    .output(accountRefSchema)
    .mutation(async ({ input, ctx }) => {
      const link = await repo.emailLinks.consume(hashToken(input.token), 'reset-password');
      if (link === 'invalid') throw new AppError('LINK_INVALID');
      if (link === 'expired') throw new AppError('LINK_EXPIRED');
      const account = await repo.accounts.findById(link.accountId);
      if (!account || account.deletedAt) throw new AppError('LINK_INVALID');
      // Deleted while the new password was being hashed: nothing is written.
      if (!(await repo.accounts.setPasswordHash(account._id, await hashPassword(input.password, policy.scrypt)))) {
        throw new AppError('LINK_INVALID');
      }
      if (!account.emailVerifiedAt) await repo.accounts.markEmailVerified(account._id, new Date(repo.clock()).toISOString());
      const revoked = await repo.sessions.revokeAll(account._id);
      const revokedApiKeys = input.revokeApiKeys
        ? await repo.apiKeys.revokeAllOfAccount(account._id, new Date(repo.clock()).toISOString())
        : 0;
      logger.info({ accountId: account._id, revokedSessions: revoked, revokedApiKeys, ...requestLogFields(ctx) }, 'password reset');
      return { accountId: account._id };
    });
}
