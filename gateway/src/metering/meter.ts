import { TRPCClientError } from '@trpc/client';
import { AppError } from '@vrs/kit';
import type { GatewayContext } from '../context';
import { fromServiceError } from '../errors/to-app-error';

/**
 * Reserves an operation's price. A short balance is a 402 whose headers say what was charged (0)
 * and what remains, as the contract asks.
 */
export async function debitForOperation(ctx: GatewayContext, operation: string, price: number) {
  const accountId = ctx.principal!.accountId;
  let reservation: { reservationId: string; balance: number };
  try {
    reservation = await ctx.services.billing.credits.reserve.mutate({ accountId, amount: price, operation, requestId: ctx.requestId });
  } catch (error) {
    const appError = error instanceof TRPCClientError ? fromServiceError(error) : error;
    if (appError instanceof AppError && appError.code === 'INSUFFICIENT_CREDITS') {
      ctx.credits.charged = 0;
      ctx.credits.remaining = (appError.details as { balance?: number } | undefined)?.balance ?? 0;
    }
    throw appError;
  }
  const { reservationId } = reservation;
  return {
    /**
     * Settles `amount` (at most the reserved price); the rest goes back to the balance. The work is
     * done by now, so a failed settle never turns its result into an error: the caller gets the
     * result, the headers say what is due and what the hold left, and the reservation stays held
     * for reconciliation (logged with its id), never charged twice nor lost.
     */
    async settle(amount: number) {
      const due = Math.min(amount, price);
      try {
        const settlement = await ctx.services.billing.credits.settle.mutate({ reservationId, amount: due });
        ctx.credits.charged = settlement.charged;
        ctx.credits.remaining = settlement.balance;
      } catch (err) {
        ctx.log.error(
          { err, reservationId, operation, amount: due },
          'settle failed after the work was done; the reservation is left to reconcile',
        );
        ctx.credits.charged = due;
        ctx.credits.remaining = reservation.balance;
      }
    },
    async refund() {
      try {
        await ctx.services.billing.credits.refund.mutate({ reservationId });
      } catch (err) {
        // The operation's own error is what the caller must see; a failed refund stays reserved and is logged.
        ctx.log.error({ err, reservationId }, 'refund failed');
      }
    },
  };
}
