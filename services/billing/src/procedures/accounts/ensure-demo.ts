import { accountRefSchema, ensureDemoAccountInputSchema } from '@vrs/contracts';
import { AppError, procedure, requestLogFields } from '@vrs/kit';
import { DuplicateKeyError } from '@vrs/store';
import type { BillingDeps } from '../../billing-deps';

/**
 * The account behind an `X-Demo-User` value, opened with the starting grant on first sight.
 * Simultaneous first requests all try to insert; the unique index on demoUser lets exactly one
 * win, and the others read the winner's account instead of opening (and granting) a second one.
 * A value whose account was deleted is refused (401 ACCOUNT_DELETED), never given a new account
 * (ADR 0033): a deleted account cannot be used again under any scheme.
 */
export function ensureDemoAccount({ repo, config, logger }: BillingDeps) {
  return procedure
    .input(ensureDemoAccountInputSchema)
    .output(accountRefSchema)
    .mutation(async ({ input: { demoUser }, ctx }) => {
      const existing = await repo.accounts.findByDemoUser(demoUser);
      if (existing?.deletedAt) throw new AppError('ACCOUNT_DELETED');
      if (existing) return { accountId: existing._id };
      try {
        const account = await repo.openAccount({ name: null, demoUser, grant: config.startingCredits, requestId: ctx.requestId });
        logger.info({ accountId: account._id, demoUser, ...requestLogFields(ctx) }, 'demo account opened');
        return { accountId: account._id };
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
        const winner = await repo.accounts.findByDemoUser(demoUser);
        if (!winner) throw error;
        return { accountId: winner._id };
      }
    });
}
