import { refundCreditsInputSchema, refundSchema } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';

/**
 * Returns everything a failed operation reserved. Idempotent: refunding again returns nothing more
 * and answers the same figure; refunding a settled reservation is a CONFLICT (the work was delivered).
 */
export function refundCredits({ repo }: BillingDeps) {
  return procedure
    .input(refundCreditsInputSchema)
    .output(refundSchema)
    .mutation(async ({ input: { reservationId } }) => {
      const reservation = await repo.reservations.findById(reservationId);
      if (!reservation) throw new AppError('NOT_FOUND', 'Reservation not found.');
      const { reservation: closed, balance } = await repo.closeReservation(reservation, 'refunded', 0);
      // An expired hold was already returned by the sweeper: that is this refund, done.
      if (closed.status !== 'refunded' && closed.status !== 'expired')
        throw new AppError('CONFLICT', `The reservation was already ${closed.status}.`, { status: closed.status });
      return { refunded: closed.amount, balance };
    });
}
