import type { billingAccountDeleted } from '@vrs/contracts';
import type { EventHandler } from '@vrs/bus';
import type { CheckDeps } from '../monitoring-deps';

export type DeleteAccountDataDeps = Pick<
  CheckDeps,
  'monitors' | 'checks' | 'notifications' | 'digestPreferences' | 'webhooks' | 'deliveries' | 'logger'
>;

/**
 * Monitoring's part of an account's deletion (ADR 0033). What schedules work goes first — monitors
 * and digest preferences — so the scheduler stops claiming it; then webhooks (with their secrets), so
 * nothing more is delivered; then what those produced: checks, notifications and deliveries. A check
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
    };
    deps.logger.info({ accountId, ...removed }, "deleted account's monitoring data removed");
  };
}
