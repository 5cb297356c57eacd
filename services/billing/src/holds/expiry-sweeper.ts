import { createPeriodicSweep, type Logger } from '@vrs/kit';
import type { BillingRepo } from '../repo';

/** Reservations closed per store read; a sweep reads again while a whole batch expired. */
const BATCH = 100;

/**
 * Returns the credits of reservations nobody settled or refunded within their time to live (a
 * gateway or service that died mid-operation), each closed as `expired` as a refund would close it.
 * Runs once at start (holds that expired while the process was down) and then every `intervalMs`.
 */
export function createExpirySweeper(options: { repo: BillingRepo; clock: () => number; intervalMs: number; logger: Logger }) {
  const { repo, clock, intervalMs, logger } = options;

  /** One sweep; resolves with how many reservations it expired. */
  async function sweepOnce(): Promise<number> {
    let expired = 0;
    for (;;) {
      const due = await repo.reservations.expiredBy(new Date(clock()).toISOString(), BATCH);
      let batchExpired = 0;
      for (const reservation of due) {
        try {
          const { reservation: closed } = await repo.closeReservation(reservation, 'expired', 0);
          if (closed.status === 'expired') batchExpired++;
        } catch (err) {
          logger.error({ err, reservationId: reservation._id }, 'could not expire reservation');
        }
      }
      expired += batchExpired;
      // A full batch that made progress may have more behind it; otherwise the next tick retries.
      if (due.length < BATCH || batchExpired === 0) break;
    }
    if (expired > 0) logger.info({ expired }, 'expired reservations returned to their balances');
    return expired;
  }

  return createPeriodicSweep({ name: 'reservation sweep', intervalMs, logger, sweep: sweepOnce });
}
