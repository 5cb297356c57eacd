import { accountSchema, updateAccountInput } from '@vrs/contracts';
import { protectedProcedure } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const updateAccount = protectedProcedure
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/account',
      operationId: 'updateAccount',
      tags: ['Account'],
      summary: "Change the account's display name",
      protect: true,
      errorResponses: [...authenticatedErrors, 422],
    },
  })
  .input(updateAccountInput)
  .output(accountSchema)
  .mutation(({ ctx, input }) => ctx.services.billing.accounts.update.mutate({ accountId: ctx.principal.accountId, name: input.name }));
