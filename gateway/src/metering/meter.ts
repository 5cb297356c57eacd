import { AppError } from '@vrs/kit';
import type { CreditFigures, GatewayContext } from '../context';
import type { CreditCalls } from './credit-calls';

/** The credit headers of a response, once metering has figures for it. */
export function creditHeaders(credits: CreditFigures | undefined): Record<string, string> {
  if (credits?.charged === undefined) return {};
  return { 'X-Credits-Charged': String(credits.charged), 'X-Credits-Remaining': String(credits.remaining ?? 0) };
}

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
 * Holds `price` with `hold`. A short balance is a 402 whose headers say what was charged (0) and
 * what remains, as the contract asks. When the balance is short of `price` but covers `savedPrice`
 * (what the read costs if saved data answers it), that is held instead and `ctx.credits.savedOnly`
 * tells the operation to answer from saved data only; if none is saved, the operation fails with
 * INSUFFICIENT_CREDITS and `refusalIfNotSaved` turns that into the 402 the full price would have been.
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

/**
 * Meters one operation with a billing reservation of its own (ADR 0083), held as `holdAtPrice` says:
 * reserved before the work, settled before the answer, refunded when the work fails.
 */
export async function debitForOperation(
  ctx: GatewayContext,
  accountId: string,
  calls: CreditCalls,
  operation: string,
  price: number,
  savedPrice?: number,
) {
  const reserve = (amount: number) => calls.reserve({ accountId, amount, operation, requestId: ctx.requestId });
  const { hold: reservation, amount: reserved, refusalIfNotSaved } = await holdAtPrice(ctx, reserve, price, savedPrice);
  const { reservationId } = reservation;
  ctx.credits.hold = { reservationId, amount: reserved };
  return {
    /** The reservation went to a job that settles it when it ends: nothing is charged yet; the balance is what the hold left. */
    handedToJob() {
      ctx.credits.charged = 0;
      ctx.credits.remaining = reservation.balance;
    },
    /**
     * Settles `amount` (at most the reserved price). A settle billing does not answer is a 503 that charged
     * nothing (`CreditCalls.settle` cancels the reservation): no answer claims a charge the ledger may not have.
     */
    async settle(amount: number) {
      try {
        const settlement = await calls.settle(reservationId, Math.min(amount, reserved));
        ctx.credits.charged = settlement.charged;
        ctx.credits.remaining = settlement.balance;
      } catch (error) {
        ctx.credits.charged = 0;
        ctx.credits.remaining = reservation.balance + reserved;
        throw error;
      }
    },
    /** After a failure and its refund: the 402 of the full price when a saved-only read found nothing saved. */
    refusalIfNotSaved,
    /** The operation's own error is what the caller must see: a refund billing did not take is retried in the background. */
    refund: () => calls.refund(reservationId),
  };
}
