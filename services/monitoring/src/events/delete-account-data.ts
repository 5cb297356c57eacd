import type { billingAccountDeleted } from '@vrs/contracts';
import { outboxCollection, type EventHandler, type OutboxDoc } from '@vrs/bus';
import { deleteInBatches } from '@vrs/store';
import type { CheckDeps } from '../monitoring-deps';

export type DeleteAccountDataDeps = Pick<
  CheckDeps,
  'monitors' | 'checks' | 'notifications' | 'digestPreferences' | 'webhooks' | 'deliveries' | 'store' | 'logger'
>;

/**
 * Monitoring's part of an account's deletion (ADR 0033). What schedules work goes first — monitors
 * and digest preferences — so the scheduler stops claiming it; then webhooks (with their secrets), so
 * nothing more is delivered; then what those produced: checks, notifications, deliveries and the outbox rows announcing them
 * (sent or not: events about a deleted account need not go out). A check
 * in flight when its monitor goes may still write its result; the sweep after the monitors catches
 * what was written until then, and a redelivery of the event catches the rest. Every step finds
 * nothing the second time.
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
