import { AppError, appErrorOfServiceCall, newId } from '@vrs/kit';
import { recordCheck } from '../events/record-check';
import { recordNotification, webhooksFor, type NewNotification } from '../events/publish-notification';
import type { CheckDeps } from '../monitoring-deps';
import type { NewCheck } from '../repo/checks-repo';
import type { MonitorDoc } from '../repo/monitors-repo';
import { compare } from './compare';
import { describeChanges } from './describe-changes';
import { checkPrice, observe, readsOf, settledPrice } from './observe';

const minuteMs = 60_000;

/** The wait after `failures` consecutive upstream failures: the interval doubled per failure, up to the cap (ADR 0028). */
export function backoffMinutes(intervalMinutes: number, failures: number, capMinutes: number): number {
  return Math.min(intervalMinutes * 2 ** failures, Math.max(capMinutes, intervalMinutes));
}

function asAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  return appErrorOfServiceCall(error) ?? new AppError('SERVICE_UNAVAILABLE', 'A service the check depends on did not answer.');
}

/**
 * One check of a claimed monitor (the caller holds its lease under `leaseToken`): pays for the
 * called operation, reads upstream, compares with the saved state, and — only if the lease still
 * holds when the result is written — records the check and notifies real changes. Never throws:
 * whatever goes wrong is the check's outcome. Returns the check's id, or null when the lease was lost.
 */
export async function runCheck(deps: CheckDeps, monitor: MonitorDoc, leaseToken: string): Promise<string | null> {
  const now = deps.clock.now().getTime();
  const checkId = newId('chk');
  const price = checkPrice(monitor.query);
  const base = { _id: checkId, accountId: monitor.accountId, monitorId: monitor._id, checkedAt: now, notificationId: null, error: null };

  let reservationId: string;
  try {
    ({ reservationId } = await deps.billing.credits.reserve.mutate({
      accountId: monitor.accountId,
      amount: price,
      // Billing names one operation per reservation: the check's first read names it, the amount covers them all.
      operation: readsOf(monitor.query)[0],
      requestId: checkId,
    }));
  } catch (error) {
    const appError = asAppError(error);
    return appError.code === 'INSUFFICIENT_CREDITS' ? paused() : failed(appError);
  }

  let observed: Awaited<ReturnType<typeof observe>>;
  try {
    observed = await observe(monitor.query, deps);
  } catch (error) {
    // A failed read (either of a check's two) is refunded in full and never compared: it cannot make
    // anything look new, and the saved state stays as the last whole check left it.
    await deps.billing.credits.refund.mutate({ reservationId }).catch((err) => deps.logger.error({ err, reservationId }, 'refund failed'));
    return failed(asAppError(error));
  }
  const settled = await deps.billing.credits.settle
    .mutate({ reservationId, amount: settledPrice(monitor.query, observed.cached) })
    .catch((err) => {
      deps.logger.error({ err, reservationId }, 'settle failed; the reservation stays held');
      return { charged: price };
    });

  const comparison = compare(monitor.state, observed.observation, now);
  const { changes } = comparison;
  return finish(
    {
      state: comparison.state,
      status: 'active',
      statusReason: null,
      consecutiveFailures: 0,
      lastCheckedAt: now,
      nextCheckAt: now + monitor.intervalMinutes * minuteMs,
    },
    changes.length > 0
      ? {
          accountId: monitor.accountId,
          monitorId: monitor._id,
          ...describeChanges(monitor.query, changes),
          items: changes,
          createdAt: new Date(now).toISOString(),
        }
      : null,
    {
      ...base,
      outcome: comparison.baseline ? 'baseline' : changes.length > 0 ? 'changed' : 'unchanged',
      changes,
      creditsCharged: settled.charged,
    },
  );

  /**
   * Writes the result under the lease, the notification (if any) and the check's record in one
   * transaction: the monitor is never released without its check in the history, and nothing is
   * recorded when the lease was lost. The outbox relay then publishes their events (ADR 0030).
   */
  async function finish(result: Partial<MonitorDoc>, notification: NewNotification | null, check: Omit<NewCheck, 'notificationId'>) {
    const channels = { read: false, deliver: true };
    const webhooks = notification ? await webhooksFor(deps, monitor.accountId, channels) : [];
    const written = await deps.store.withTransaction(async (tx) => {
      if (!(await deps.monitors.finishCheck(monitor._id, leaseToken, result, tx))) return false;
      const notificationId = notification ? await recordNotification(deps, tx, notification, channels, webhooks) : null;
      await recordCheck(deps, tx, { ...check, notificationId });
      return true;
    });
    if (!written) {
      // Another claim (an expired lease retaken) or a query change overtook this check: its result is dropped.
      deps.logger.warn({ monitorId: monitor._id }, 'check finished after losing its lease; result dropped');
      return null;
    }
    deps.outbox.notify();
    return check._id;
  }

  /** No credits: tried again every interval; the account hears about it once, not once per interval. */
  function paused() {
    return finish(
      {
        status: 'paused_no_credits',
        statusReason: 'The account has no credits left for checks; they resume once credits are added.',
        lastCheckedAt: now,
        nextCheckAt: now + monitor.intervalMinutes * minuteMs,
      },
      monitor.status === 'paused_no_credits'
        ? null
        : {
            accountId: monitor.accountId,
            monitorId: monitor._id,
            kind: 'checks_paused',
            title: 'Monitor checks are paused: no credits left',
            body: `Checks of this monitor cost ${price} credits each; they resume by themselves once the account has credits again.`,
            items: [],
            createdAt: new Date(now).toISOString(),
          },
      { ...base, outcome: 'paused', changes: [], creditsCharged: 0 },
    );
  }

  /** An upstream failure: the monitor backs off (the interval doubles up to a cap) and says why. */
  function failed(error: AppError) {
    const failures = monitor.consecutiveFailures + 1;
    const waitMinutes = backoffMinutes(monitor.intervalMinutes, failures, deps.config.backoffCapMinutes);
    return finish(
      {
        status: 'backing_off',
        statusReason: `${error.code}: ${error.message} (${failures} failed check${failures === 1 ? '' : 's'} in a row; next in ${waitMinutes} minutes)`,
        consecutiveFailures: failures,
        lastCheckedAt: now,
        nextCheckAt: now + waitMinutes * minuteMs,
      },
      null,
      { ...base, outcome: 'failed', changes: [], creditsCharged: 0, error: { code: error.code, message: error.message } },
    );
  }
}
