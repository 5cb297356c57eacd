import { deleteInBatches, type StoreScope } from '@vrs/store';

/** `expired`: never settled nor refunded within its time to live; the sweeper returned its credits. */
export type ReservationStatus = 'reserved' | 'settled' | 'refunded' | 'expired';

/** Credits held for one metered operation until it is settled (it ran) or refunded (it failed). */
export interface ReservationDoc {
  _id: string;
  accountId: string;
  /** Credits held when reserved. */
  amount: number;
  operation: string;
  requestId: string | null;
  status: ReservationStatus;
  /** What was finally charged: set when settled (0 when refunded or expired). */
  charged: number | null;
  createdAt: string;
  /** When the sweeper may return the hold if nobody settled or refunded it (ISO-8601). */
  expiresAt: string;
  closedAt: string | null;
  /**
   * False for a reservation made since ADR 0083, whose hold is not a ledger line: only what it
   * charges is. Absent on older ones, which have a `reserve` line, closed with a `settle` or `refund` line.
   */
  heldInLedger?: boolean;
}

export function createReservationsRepo(store: StoreScope) {
  const reservations = store.collection<ReservationDoc>('reservations');
  return {
    createIndexes: () =>
      reservations.createIndexes([
        { key: { status: 1, expiresAt: 1 }, name: 'status_expiry' },
        { key: { accountId: 1, status: 1 }, name: 'account_status' },
      ]),

    insertMany: (held: ReservationDoc[]) => reservations.insertMany(held),

    findById: (reservationId: string) => reservations.findOne({ _id: reservationId }),

    findByIds: (reservationIds: string[]) => reservations.find({ _id: { $in: reservationIds } }),

    /** Closes the given reservations still `reserved` alike, in one update; answers how many it changed. */
    closeAll: (reservationIds: string[], status: 'settled' | 'refunded', charged: number, closedAt: string) =>
      reservations.updateMany({ _id: { $in: reservationIds }, status: 'reserved' }, { $set: { status, charged, closedAt } }),

    /**
     * Moves a reservation from `from` to a closed status only if it is still in `from`: of two
     * concurrent calls exactly one gets the document back, and only that one moves credits.
     */
    close: (
      reservationId: string,
      from: ReservationStatus,
      status: Exclude<ReservationStatus, 'reserved'>,
      charged: number,
      closedAt: string,
    ) =>
      reservations.findOneAndUpdate(
        { _id: reservationId, status: from },
        { $set: { status, charged, closedAt } },
        { returnDocument: 'after' },
      ),

    /** Open reservations whose time is up, oldest first. */
    expiredBy: (now: string, limit: number) =>
      reservations.find({ status: 'reserved', expiresAt: { $lte: now } }, { sort: { expiresAt: 1 }, limit }),

    /** Reservations still holding credits, of every account (the metrics' reservations outstanding). */
    countOpen: () => reservations.countDocuments({ status: 'reserved' }),

    openOfAccount: (accountId: string, limit: number) => reservations.find({ accountId, status: 'reserved' }, { limit }),

    /** Removes every reservation of a deleted account, open or closed (ADR 0033); the ledger keeps their lines. */
    deleteAllOfAccount: (accountId: string) => deleteInBatches(reservations, { accountId }),
  };
}
