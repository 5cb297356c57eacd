import type { billingAccountDeleted } from '@vrs/contracts';
import { outboxCollection, type EventHandler, type OutboxDoc } from '@vrs/bus';
import type { Logger } from '@vrs/kit';
import { deleteInBatches, type Store } from '@vrs/store';
import type { BillingRepo } from '../repo';

/** Open reservations returned per store read while releasing a deleted account's holds. */
const batchSize = 100;

/**
 * Billing's part of an account's deletion (ADR 0033): open holds are refunded, the ledger's request
 * ids removed, and the account's other rows deleted, the deletion's own outbox row too (this is its
 * delivery). The account document and the ledger stay, anonymised, for accounting. Running it again
 * finds nothing left to do.
 */
export function createDeleteAccountDataHandler(deps: {
  repo: BillingRepo;
  store: Store;
  logger: Logger;
}): EventHandler<typeof billingAccountDeleted> {
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
    const ledgerLines = await repo.ledger.anonymise(accountId);
    const apiKeys = await repo.apiKeys.deleteAllOfAccount(accountId);
    // Refused since the deletion already (verify checks the account); removed here with the rest.
    const sessions = await repo.sessions.deleteAllOfAccount(accountId);
    const emailLinks = await repo.emailLinks.deleteAllOfAccount(accountId);
    const deviceCodes = await repo.deviceCodes.deleteAllOfAccount(accountId);
    const oauthTokens =
      (await repo.oauthCodes.deleteAllOfAccount(accountId)) + (await repo.oauthRefreshTokens.deleteAllOfAccount(accountId));
    const outbox = await deleteInBatches(deps.store.collection<OutboxDoc>(outboxCollection), { 'data.accountId': accountId });
    logger.info(
      { accountId, released, reservations, ledgerLines, apiKeys, sessions, emailLinks, deviceCodes, oauthTokens, outbox },
      "deleted account's billing data removed",
    );
  };
}
