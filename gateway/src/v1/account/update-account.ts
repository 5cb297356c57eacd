import { accountSchema, updateAccountInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const updateAccount = protectedOperation({
  method: 'PATCH',
  path: '/account',
  operationId: 'updateAccount',
  tags: ['Account'],
  summary: "Change the account's display name",
  errorResponses: [...authenticatedErrors, 422],
})
  .input(updateAccountInput)
  .output(accountSchema)
  .mutation(({ ctx, input }) => ctx.services.billing.accounts.update.mutate({ accountId: ctx.principal.accountId, name: input.name }));
