import type { Store } from '@vrs/store';

export type ReservationStatus = 'reserved' | 'settled' | 'refunded';

/** Credits held for one metered operation until it is settled (it ran) or refunded (it failed). */
export interface ReservationDoc {
  _id: string;
  accountId: string;
  /** Credits held when reserved. */
  amount: number;
  operation: string;
  requestId: string | null;
  status: ReservationStatus;
  /** What was finally charged: set when settled (0 when refunded). */
  charged: number | null;
  createdAt: string;
  closedAt: string | null;
}

export function createReservationsRepo(store: Store) {
  const reservations = store.collection<ReservationDoc>('reservations');
  return {
    insert: (reservation: ReservationDoc) => reservations.insertOne(reservation),

    findById: (reservationId: string) => reservations.findOne({ _id: reservationId }),

    /**
     * Closes a reservation only if it is still open: of two concurrent settle/refund calls exactly
     * one gets the document back, and only that one moves credits. Null means someone closed it first.
     */
    close: (reservationId: string, status: Exclude<ReservationStatus, 'reserved'>, charged: number) =>
      reservations.findOneAndUpdate(
        { _id: reservationId, status: 'reserved' },
        { $set: { status, charged, closedAt: new Date().toISOString() } },
        { returnDocument: 'after' },
      ),
  };
}

export type ReservationsRepo = ReturnType<typeof createReservationsRepo>;
