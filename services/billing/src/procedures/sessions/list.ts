import { listSessionsInputSchema, sessionSummaryPageSchema } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';

/** An account's live web and CLI sessions, newest first (ADR 0020); never a token or its hash. */
export function listSessions({ repo }: BillingDeps) {
  return procedure
    .input(listSessionsInputSchema)
    .output(sessionSummaryPageSchema)
    .query(async ({ input: { accountId, ...page } }) => {
      if (!(await repo.accounts.findById(accountId))) throw new AppError('ACCOUNT_NOT_FOUND');
      return repo.sessions.page(accountId, page);
    });
}
