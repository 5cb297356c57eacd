import { ledgerPageSchema, listLedgerInputSchema } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';

export function listLedgerEntries({ repo }: BillingDeps) {
  return procedure
    .input(listLedgerInputSchema)
    .output(ledgerPageSchema)
    .query(async ({ input: { accountId, ...page } }) => {
      // An unknown account is an error, not an empty page, like status.get.
      if (!(await repo.accounts.findById(accountId))) throw new AppError('ACCOUNT_NOT_FOUND');
      return repo.ledger.page(accountId, page);
    });
}
