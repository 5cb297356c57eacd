import { signInInputSchema, signInResultSchema } from '@vrs/contracts';
import { AppError, procedure, requestLogFields } from '@vrs/kit';
import { identityPolicyOf, type BillingDeps } from '../../billing-deps';
import { issueLink } from '../../identity/links';
import { hashPassword, needsRehash, verifyAgainstDummy, verifyPassword } from '../../identity/passwords';

/**
 * Checks an email and password. A wrong password, an unknown address, a deleted account and an
 * account without a password are all INVALID_CREDENTIALS, after the same scrypt work (a dummy hash
 * when there is nothing to check), so neither the answer nor its timing tells them apart. A correct
 * password of an unverified account comes back `verified: false` with a fresh link to send.
 */
export function signIn({ repo, config, logger }: BillingDeps) {
  const policy = identityPolicyOf(config);
  return procedure
    .input(signInInputSchema)
    .output(signInResultSchema)
    .mutation(async ({ input, ctx }) => {
      const account = await repo.accounts.findByEmail(input.email);
      const stored = account && !account.deletedAt ? account.passwordHash : undefined;
      const correct = stored ? await verifyPassword(input.password, stored) : await verifyAgainstDummy(input.password, policy.scrypt);
      if (!account || !stored || !correct) throw new AppError('INVALID_CREDENTIALS');
      if (needsRehash(stored, policy.scrypt)) {
        // False when the account was deleted meanwhile: then it signs in no more than any deleted account.
        if (!(await repo.accounts.setPasswordHash(account._id, await hashPassword(input.password, policy.scrypt)))) {
          throw new AppError('INVALID_CREDENTIALS');
        }
        logger.info({ accountId: account._id, ...requestLogFields(ctx) }, 'password rehashed at the current cost');
      }
      if (!account.emailVerifiedAt) {
        const verificationToken = await issueLink(repo, account._id, 'verify-email', policy.emailVerificationTtlMs);
        return { accountId: account._id, verified: false, verificationToken };
      }
      return { accountId: account._id, verified: true, verificationToken: null };
    });
}
