import { accountSchema, getAccountInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const getAccount = protectedOperation({
  method: 'GET',
  path: '/account',
  operationId: 'getAccount',
  tags: ['Account'],
  summary: 'The account: email, name, whether the email is verified, plan',
  errorResponses: [...authenticatedErrors],
})
  .input(getAccountInput)
  .output(accountSchema)
  .query(({ ctx }) => ctx.services.billing.accounts.get.query({ accountId: ctx.principal.accountId }));
