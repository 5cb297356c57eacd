import { passwordResetIssuedSchema, passwordResetRequestSchema } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import { identityPolicyOf, type BillingDeps } from '../../billing-deps';
import { issueLink } from '../../identity/links';

/** A reset link for the address's account, or null when there is none (the gateway answers the visitor the same either way). */
export function requestPasswordReset({ repo, config }: BillingDeps) {
  const policy = identityPolicyOf(config);
  return procedure
    .input(passwordResetRequestSchema)
    .output(passwordResetIssuedSchema)
    .mutation(async ({ input }) => {
      const account = await repo.accounts.findByEmail(input.email);
      if (!account || account.deletedAt) return null;
      return { accountId: account._id, token: await issueLink(repo, account._id, 'reset-password', policy.passwordResetTtlMs) };
    });
}
