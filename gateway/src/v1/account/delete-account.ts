import { deletedAccountSchema, deleteAccountInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const deleteAccount = protectedOperation({
  method: 'DELETE',
  path: '/account',
  operationId: 'deleteAccount',
  tags: ['Account'],
  summary: 'Delete the account and everything it owns',
  description:
    'Deletes the account at once: every credential of it (API keys, sessions, its demo value) answers 401 from now on, including the one that sent this request. Everything the account owns — projects, evidence, imports, exports, comparisons, answers and reports, trend plans, agent sessions and runs, monitors, checks, notifications, webhooks, digest preferences, idempotency records — is then removed by every service in the background (`status: deleting`). The credit ledger is kept for accounting, with the personal fields removed. The account cannot be used or restored again; a second request is a 401, as its credential is gone.',
  errorResponses: [...authenticatedErrors, 404],
})
  .input(deleteAccountInput)
  .output(deletedAccountSchema)
  .mutation(async ({ ctx }) => {
    const { accountId, deletedAt } = await ctx.services.billing.accounts.delete.mutate({ accountId: ctx.principal.accountId });
    // This replica refuses the account's cached credentials now; the others on billing.account.deleted.
    ctx.authCaches.forgetAccount(accountId);
    return { id: accountId, status: 'deleting' as const, deletedAt };
  });
