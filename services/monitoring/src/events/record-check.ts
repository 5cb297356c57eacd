import { recordOutboxEvent } from '@vrs/bus';
import { monitoringCheckCompleted } from '@vrs/contracts';
import type { StoreScope } from '@vrs/store';
import type { CheckDeps } from '../monitoring-deps';
import type { NewCheck } from '../repo/checks-repo';

/**
 * Saves a finished check in the monitor's history and records its announcement
 * (`monitoring.check.completed`, event id = check id) through `tx`, the transaction that writes the
 * check's result; the outbox relay publishes it once committed, so NATS being away neither fails
 * the check nor loses the event (ADR 0030).
 */
export async function recordCheck(deps: Pick<CheckDeps, 'checks'>, tx: StoreScope, check: NewCheck): Promise<void> {
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
}
