import { closeManyInputSchema, closeManySchema } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';
import { settlementOf, tooMuch } from './settle';

/**
 * Settles or cancels many reservations at once, in one store transaction (ADR 0083), each answered
 * on its own. A settle is `credits.settle`'s (idempotent, at most what was held). A cancel ends the
 * reservation uncharged whatever happened before: refunded if held, its charge given back if a
 * settle got there first (one whose answer was lost), nothing if it was refunded or expired.
 */
export function closeManyCredits({ repo }: BillingDeps) {
  return procedure
    .input(closeManyInputSchema)
    .output(closeManySchema)
    .mutation(async ({ input: { items } }) => {
      const closed = await repo.closeMany(
        items.map((item) => ({
          reservationId: item.reservationId,
          outcome: item.outcome === 'settle' ? ('settled' as const) : ('cancel' as const),
          charged: item.outcome === 'settle' ? item.amount : 0,
        })),
      );
      return {
        results: items.map((item, i) => {
          try {
            const done = closed[i];
            if (!done) throw new AppError('NOT_FOUND', 'Reservation not found.');
            if (item.outcome === 'cancel') return { ok: true as const, charged: 0, balance: done.balance };
            if (item.amount > done.held) throw tooMuch(done.held, item.amount);
            return { ok: true as const, ...settlementOf(done.reservation, done.balance, item.amount) };
          } catch (error) {
            const { code, message, details } = error as AppError;
            return { ok: false as const, code, message, ...(details ? { details: details as Record<string, unknown> } : {}) };
          }
        }),
      };
    });
}
