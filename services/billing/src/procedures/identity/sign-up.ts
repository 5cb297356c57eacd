import { signUpInputSchema, signUpResultSchema } from '@vrs/contracts';
import { procedure, requestLogFields } from '@vrs/kit';
import { DuplicateKeyError } from '@vrs/store';
import { identityPolicyOf, type BillingDeps } from '../../billing-deps';
import { issueLink } from '../../identity/links';
import { hashPassword, verifyAgainstDummy } from '../../identity/passwords';

/**
 * Opens an unverified account for an email address, with a verification link to send. An address
 * already taken opens nothing and says so only to the caller (the gateway), which answers the
 * visitor exactly as for a new account and mails the address's owner instead — no enumeration.
 */
export function signUp({ repo, config, logger }: BillingDeps) {
  const policy = identityPolicyOf(config);
  return procedure
    .input(signUpInputSchema)
    .output(signUpResultSchema)
    .mutation(async ({ input, ctx }) => {
      const taken = async () => {
        const existing = await repo.accounts.findByEmail(input.email);
        if (!existing) return null;
        const verificationToken = existing.emailVerifiedAt
          ? null
          : await issueLink(repo, existing._id, 'verify-email', policy.emailVerificationTtlMs);
        return { accountId: existing._id, created: false, verificationToken };
      };
      const already = await taken();
      if (already) {
        // The same scrypt work as a new account's hash, so the answer's timing does not reveal the account.
        await verifyAgainstDummy(input.password, policy.scrypt);
        return already;
      }
      // Hashing is the slow part; a parallel sign-up of the same address loses at the unique index.
      const passwordHash = await hashPassword(input.password, policy.scrypt);
      try {
        const account = await repo.openAccount({
          name: input.name ?? null,
          credentials: { email: input.email, passwordHash },
          grant: config.startingCredits,
          requestId: ctx.requestId,
        });
        logger.info({ accountId: account._id, ...requestLogFields(ctx) }, 'account signed up');
        const verificationToken = await issueLink(repo, account._id, 'verify-email', policy.emailVerificationTtlMs);
        return { accountId: account._id, created: true, verificationToken };
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
        const winner = await taken();
        if (!winner) throw error;
        return winner;
      }
    });
}
