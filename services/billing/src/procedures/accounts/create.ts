import { accountRefSchema, createAccountInputSchema } from '@vrs/contracts';
import { procedure, requestLogFields } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';

export function createAccount({ repo, config, logger }: BillingDeps) {
  return procedure
    .input(createAccountInputSchema)
    .output(accountRefSchema)
    .mutation(async ({ input, ctx }) => {
      const account = await repo.openAccount({
        name: input.name ?? null,
        grant: input.initialCredits ?? config.startingCredits,
        requestId: ctx.requestId,
      });
      logger.info({ accountId: account._id, granted: account.granted, ...requestLogFields(ctx) }, 'account opened');
      return { accountId: account._id };
    });
}
