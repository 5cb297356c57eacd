import { settleCreditsInputSchema, settlementSchema } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';
import type { ReservationDoc } from '../../repo/reservations';

/** What a settle of `amount` answers once the reservation was closed as `closed` (by it or before it). */
export function settlementOf(closed: ReservationDoc, balance: number, amount: number): { charged: number; balance: number } {
  // Expired before this settle and the balance could not cover it afterwards: the operation ran free.
  if (closed.status === 'expired') return { charged: 0, balance };
  if (closed.status !== 'settled')
    throw new AppError('CONFLICT', `The reservation was already ${closed.status}.`, { status: closed.status });
  if (closed.charged !== amount) {
    throw new AppError('CONFLICT', `The reservation was already settled for ${closed.charged} credits.`, { charged: closed.charged });
  }
  return { charged: amount, balance };
}

export function tooMuch(reserved: number, amount: number): AppError {
  return new AppError('VALIDATION_FAILED', `Cannot settle ${amount} credits: only ${reserved} were reserved.`, { reserved, amount });
}

/**
 * Charges what a finished operation really cost (at most what was reserved) and returns the rest.
 * Idempotent: settling again with the same amount charges nothing more and answers the same charge
 * with the current balance; a different amount, or a refunded reservation, is a CONFLICT. A settle
 * after the hold expired charges the balance when it can (see BillingRepo.closeReservation).
 */
export function settleCredits({ repo }: BillingDeps) {
  return procedure
    .input(settleCreditsInputSchema)
    .output(settlementSchema)
    .mutation(async ({ input: { reservationId, amount } }) => {
      const reservation = await repo.reservations.findById(reservationId);
      if (!reservation) throw new AppError('NOT_FOUND', 'Reservation not found.');
      if (amount > reservation.amount) throw tooMuch(reservation.amount, amount);
      const { reservation: closed, balance } = await repo.closeReservation(reservation, 'settled', amount);
      return settlementOf(closed, balance, amount);
    });
}
