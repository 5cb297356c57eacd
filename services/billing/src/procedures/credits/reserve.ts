import { reservationSchema, reserveCreditsInputSchema } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';
import type { ReserveOutcome } from '../../repo';

/** The error a refused hold is: INSUFFICIENT_CREDITS says what the account can spend now (its balance). */
export function refusalOf(outcome: Extract<ReserveOutcome, { refused: string }>, amount: number): AppError {
  if (outcome.refused !== 'INSUFFICIENT_CREDITS') return new AppError(outcome.refused);
  return new AppError('INSUFFICIENT_CREDITS', `This operation needs ${amount} credits; the account has ${outcome.balance}.`, {
    balance: outcome.balance,
    required: amount,
  });
}

/**
 * Holds credits before a metered operation runs: `BillingRepo.reserveMany` of one item, which no
 * number of concurrent holds can overdraw. An unsettled reservation expires after BILLING_RESERVATION_TTL_MS.
 */
export function reserveCredits({ repo }: BillingDeps) {
  return procedure
    .input(reserveCreditsInputSchema)
    .output(reservationSchema)
    .mutation(async ({ input, ctx }) => {
      const { accountId, amount, operation } = input;
      const [outcome] = await repo.reserveMany([{ accountId, amount, operation, requestId: input.requestId ?? ctx.requestId }]);
      if (outcome === undefined) throw new Error('a hold of one item answered no outcome');
      if (outcome.refused) throw refusalOf(outcome, amount);
      return { reservationId: outcome.reservationId, balance: outcome.balance };
    });
}
