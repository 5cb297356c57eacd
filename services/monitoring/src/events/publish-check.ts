import { recordOutboxEvent } from '@vrs/bus';
import { monitoringCheckCompleted } from '@vrs/contracts';
import type { CheckDeps } from '../monitoring-deps';
import type { NewCheck } from '../repo/checks-repo';

/**
 * Saves a finished check in the monitor's history and records its announcement
 * (`monitoring.check.completed`, event id = check id) in the same transaction; the outbox relay
 * publishes it, so NATS being away neither fails the check nor loses the event (ADR 0030).
 */
export async function publishCheck(deps: Pick<CheckDeps, 'checks' | 'store' | 'outbox'>, check: NewCheck): Promise<void> {
  await deps.store.withTransaction(async (tx) => {
    await deps.checks.insert(check, tx);
    await recordOutboxEvent(
      tx,
      monitoringCheckCompleted,
      {
        accountId: check.accountId,
        monitorId: check.monitorId,
        checkId: check._id,
        outcome: check.outcome,
        creditsCharged: check.creditsCharged,
      },
      check._id,
    );
  });
  deps.outbox.notify();
}
