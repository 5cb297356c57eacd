import type { billingAccountDeleted } from '@vrs/contracts';
import type { EventHandler } from '@vrs/bus';
import type { Logger } from '@vrs/kit';
import type { BillingRepo } from '../repo';

/** Open reservations returned per store read while releasing a deleted account's holds. */
const batchSize = 100;

/**
 * Billing's part of an account's deletion (ADR 0033): open credit holds are released as refunds
 * (their ledger lines written like any refund), then the reservations and the account's revoked API
 * keys are deleted. The account document and the ledger stay, anonymised, for accounting. Running
 * it again finds nothing left to do.
 */
export function createDeleteAccountDataHandler(deps: { repo: BillingRepo; logger: Logger }): EventHandler<typeof billingAccountDeleted> {
  const { repo, logger } = deps;
  return async ({ data: { accountId } }) => {
    let released = 0;
    for (;;) {
      const open = await repo.reservations.openOfAccount(accountId, batchSize);
      for (const reservation of open) {
        const { reservation: closed } = await repo.closeReservation(reservation, 'refunded', 0);
        if (closed.status === 'refunded') released++;
      }
      if (open.length < batchSize) break;
    }
    const reservations = await repo.reservations.deleteAllOfAccount(accountId);
    const apiKeys = await repo.apiKeys.deleteAllOfAccount(accountId);
    logger.info({ accountId, released, reservations, apiKeys }, "deleted account's billing data removed");
  };
}
