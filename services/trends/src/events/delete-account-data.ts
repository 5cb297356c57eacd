import type { billingAccountDeleted } from '@vrs/contracts';
import type { EventHandler } from '@vrs/bus';
import type { Logger } from '@vrs/kit';
import type { PlansRepo } from '../repo/plans-repo';

/**
 * Trends' part of an account's deletion (ADR 0033): the account's video plans. Metric snapshots
 * belong to no account (they are public counts of videos, shared by every report) and stay until
 * they expire. A redelivery finds nothing left to delete.
 */
export function createDeleteAccountDataHandler(deps: { plans: PlansRepo; logger: Logger }): EventHandler<typeof billingAccountDeleted> {
  return async ({ data: { accountId } }) => {
    const plans = await deps.plans.deleteAllOfAccount(accountId);
    deps.logger.info({ accountId, plans }, "deleted account's trend plans removed");
  };
}
