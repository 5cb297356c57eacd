import { monitoringCheckCompleted } from '@vrs/contracts';
import type { CheckDeps } from '../monitoring-deps';
import type { NewCheck } from '../repo/checks-repo';

/** Saves a finished check in the monitor's history and announces it (`monitoring.check.completed`). */
export async function publishCheck(deps: Pick<CheckDeps, 'checks' | 'bus'>, check: NewCheck): Promise<void> {
  await deps.checks.insert(check);
  await deps.bus.publish(monitoringCheckCompleted, {
    accountId: check.accountId,
    monitorId: check.monitorId,
    checkId: check._id,
    outcome: check.outcome,
    creditsCharged: check.creditsCharged,
  });
}
