import { TRPCClientError } from '@trpc/client';
import { AppError } from '@vrs/kit';
import type { GatewayContext } from '../context';
import { fromServiceError } from '../errors/to-app-error';
import type { CreditLeases } from './credit-leases';

/** The figures of a short balance, as billing reported them. */
function shortfallOf(error: unknown): { balance: number } | undefined {
  if (!(error instanceof AppError) || error.code !== 'INSUFFICIENT_CREDITS') return undefined;
  return { balance: (error.details as { balance?: number } | undefined)?.balance ?? 0 };
}

/** What `holdAtPrice` held, and the 402 of the full price to answer if saved data cannot. */
interface PricedHold<H> {
  hold: H;
  amount: number;
  refusalIfNotSaved(failure: AppError): AppError | undefined;
}

/**
 * Holds `price` with `hold` (a reservation, or a share of a lease). A short balance is a 402 whose
 * headers say what was charged (0) and what remains, as the contract asks. When the balance is short
 * of `price` but covers `savedPrice` (what the read costs if saved data answers it), that is held
 * instead and `ctx.credits.savedOnly` tells the operation to answer from saved data only; if none
 * is saved, the operation fails with INSUFFICIENT_CREDITS and `refusalIfNotSaved` turns that into
 * the 402 the full price would have been.
 */
async function holdAtPrice<H>(
  ctx: GatewayContext,
  hold: (amount: number) => Promise<H>,
  price: number,
  savedPrice: number | undefined,
): Promise<PricedHold<H>> {
  const refuse = (error: AppError, balance: number) => {
    ctx.credits.charged = 0;
    ctx.credits.remaining = balance;
    return error;
  };
  try {
    return { hold: await hold(price), amount: price, refusalIfNotSaved: () => undefined };
  } catch (error) {
    const shortfall = shortfallOf(error);
    if (!shortfall) throw error;
    if (savedPrice === undefined || savedPrice >= price || shortfall.balance < savedPrice)
      throw refuse(error as AppError, shortfall.balance);
    let held: H;
    try {
      held = await hold(savedPrice);
    } catch (retryError) {
      const retryShortfall = shortfallOf(retryError);
      throw retryShortfall ? refuse(error as AppError, retryShortfall.balance) : retryError;
    }
    ctx.credits.savedOnly = true;
    return {
      hold: held,
      amount: savedPrice,
      refusalIfNotSaved: (failure) => (failure.code === 'INSUFFICIENT_CREDITS' ? refuse(error as AppError, shortfall.balance) : undefined),
    };
  }
}

/** Meters an operation with a billing reservation of its own, held as `holdAtPrice` says. */
export async function debitForOperation(ctx: GatewayContext, operation: string, price: number, savedPrice?: number) {
  const accountId = ctx.principal!.accountId;
  const reserve = async (amount: number) => {
    try {
      return await ctx.services.billing.credits.reserve.mutate({ accountId, amount, operation, requestId: ctx.requestId });
    } catch (error) {
      throw error instanceof TRPCClientError ? fromServiceError(error) : error;
    }
  };
  const { hold: reservation, amount: reserved, refusalIfNotSaved } = await holdAtPrice(ctx, reserve, price, savedPrice);
  const { reservationId } = reservation;
  ctx.credits.hold = { reservationId, amount: reserved };
  return {
    /**
     * The operation handed the reservation to a job that settles it when it ends: nothing is
     * charged yet, and the balance is what the hold left.
     */
    handedToJob() {
      ctx.credits.charged = 0;
      ctx.credits.remaining = reservation.balance;
    },
    /**
     * Settles `amount` (at most the reserved price); the rest goes back to the balance. The work is
     * done by now, so a failed settle never turns its result into an error: the caller gets the
     * result, the headers say what is due and what the hold left, and the reservation stays held
     * for reconciliation (logged with its id), never charged twice nor lost.
     */
    async settle(amount: number) {
      const due = Math.min(amount, reserved);
      try {
        const settlement = await ctx.services.billing.credits.settle.mutate({ reservationId, amount: due });
        ctx.credits.charged = settlement.charged;
        ctx.credits.remaining = settlement.balance;
      } catch (err) {
        ctx.log.error(
          { err, requestId: ctx.requestId, reservationId, operation, amount: due },
          'settle failed after the work was done; the reservation is left to reconcile',
        );
        ctx.credits.charged = due;
        ctx.credits.remaining = reservation.balance;
      }
    },
    /**
     * After a failure, and its refund: when the reservation was saved-only and nothing saved could
     * answer, the 402 of the full price, with its headers; otherwise undefined.
     */
    refusalIfNotSaved,
    async refund() {
      try {
        await ctx.services.billing.credits.refund.mutate({ reservationId });
      } catch (err) {
        // The operation's own error is what the caller must see; a failed refund stays reserved and is logged.
        ctx.log.error({ err, requestId: ctx.requestId, reservationId }, 'refund failed');
      }
    },
  };
}

/**
 * The same debit as `debitForOperation`, held from this process's credit lease of the account
 * (ADR 0039) instead of a reservation of its own: no billing call while the lease covers it. Not
 * for an operation that hands its hold to a job (that needs a reservation the job can settle).
 */
export async function debitFromLease(ctx: GatewayContext, leases: CreditLeases, operation: string, price: number, savedPrice?: number) {
  const accountId = ctx.principal!.accountId;
  const { hold, refusalIfNotSaved } = await holdAtPrice(
    ctx,
    (amount) => leases.hold(accountId, amount, operation, ctx.requestId),
    price,
    savedPrice,
  );
  return {
    handedToJob() {
      throw new Error(`operation ${operation} handed a leased hold to a job; mark it handsHoldToJob`);
    },
    async settle(amount: number) {
      const { charged, remaining } = hold.settle(amount);
      ctx.credits.charged = charged;
      ctx.credits.remaining = remaining;
    },
    refusalIfNotSaved,
    async refund() {
      hold.refund();
    },
  };
}
