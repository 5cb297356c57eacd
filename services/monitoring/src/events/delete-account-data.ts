import type { billingAccountDeleted } from '@vrs/contracts';
import { outboxCollection, type EventHandler, type OutboxDoc } from '@vrs/bus';
import { deleteInBatches } from '@vrs/store';
import type { CheckDeps } from '../monitoring-deps';

export type DeleteAccountDataDeps = Pick<
  CheckDeps,
  'monitors' | 'checks' | 'notifications' | 'digestPreferences' | 'webhooks' | 'deliveries' | 'store' | 'logger'
>;

/**
 * Monitoring's part of an account's deletion (ADR 0033), in order: what schedules work, so the
 * scheduler stops claiming it; webhooks, so nothing more is delivered; then what those produced, the
 * outbox rows too (sent or not). A check in flight when its monitor goes may still write its result:
 * the steps after the monitors catch what it wrote until then, a redelivery of the event the rest.
 * Every step finds nothing the second time.
 */
export function createDeleteAccountDataHandler(deps: DeleteAccountDataDeps): EventHandler<typeof billingAccountDeleted> {
  return async ({ data: { accountId } }) => {
    const removed = {
      monitors: await deps.monitors.deleteAllOfAccount(accountId),
      digestPreferences: await deps.digestPreferences.delete(accountId),
      webhooks: await deps.webhooks.deleteAllOfAccount(accountId),
      checks: await deps.checks.deleteAllOfAccount(accountId),
      notifications: await deps.notifications.deleteAllOfAccount(accountId),
      deliveries: await deps.deliveries.deleteAllOfAccount(accountId),
      outbox: await deleteInBatches(deps.store.collection<OutboxDoc>(outboxCollection), { 'data.accountId': accountId }),
    };
    deps.logger.info({ accountId, ...removed }, "deleted account's monitoring data removed");
  };
}
