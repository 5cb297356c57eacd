import { reservationSchema, reserveCreditsInputSchema } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';

/**
 * Holds credits before a metered operation runs. The hold is one conditional update on the account
 * (balance ≥ amount, then move amount to reserved), never a read followed by a write, so any number
 * of concurrent reservations can never overdraw the balance; it commits together with the
 * reservation and its ledger line. An unsettled reservation expires after BILLING_RESERVATION_TTL_MS.
 */
export function reserveCredits({ repo }: BillingDeps) {
  return procedure
    .input(reserveCreditsInputSchema)
    .output(reservationSchema)
    .mutation(async ({ input, ctx }) => {
      const { accountId, amount, operation } = input;
      const reservation = await repo.reserve({ accountId, amount, operation, requestId: input.requestId ?? ctx.requestId });
      if (!reservation) {
        // Read only to explain the refusal; the decision was the conditional hold's.
        const current = await repo.accounts.findById(accountId);
        if (!current) throw new AppError('ACCOUNT_NOT_FOUND');
        if (current.deletedAt) throw new AppError('ACCOUNT_DELETED');
        throw new AppError('INSUFFICIENT_CREDITS', `This operation needs ${amount} credits; the account has ${current.balance}.`, {
          balance: current.balance,
          required: amount,
        });
      }
      return reservation;
    });
}
