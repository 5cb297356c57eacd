import { reservationSchema, reserveCreditsInputSchema } from '@vrs/contracts';
import { AppError, newId, procedure } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';

/**
 * Holds credits before a metered operation runs. The hold is one conditional update on the account
 * (balance ≥ amount, then move amount to reserved), never a read followed by a write, so any number
 * of concurrent reservations can never overdraw the balance.
 */
export function reserveCredits({ repo }: BillingDeps) {
  return procedure
    .input(reserveCreditsInputSchema)
    .output(reservationSchema)
    .mutation(async ({ input, ctx }) => {
      const { accountId, amount, operation } = input;
      const account = await repo.accounts.hold(accountId, amount);
      if (!account) {
        // Read only to explain the refusal; the decision was the conditional update's.
        const current = await repo.accounts.findById(accountId);
        if (!current) throw new AppError('ACCOUNT_NOT_FOUND');
        throw new AppError('INSUFFICIENT_CREDITS', `This operation needs ${amount} credits; the account has ${current.balance}.`, {
          balance: current.balance,
          required: amount,
        });
      }
      const reservationId = newId('res');
      const requestId = input.requestId ?? ctx.requestId;
      // Independent writes: issued together, their disk syncs overlap instead of queuing.
      await Promise.all([
        repo.reservations.insert({
          _id: reservationId,
          accountId,
          amount,
          operation,
          requestId,
          status: 'reserved',
          charged: null,
          createdAt: new Date().toISOString(),
          closedAt: null,
        }),
        repo.ledger.append({ accountId, kind: 'reserve', amount: -amount, operation, reservationId, requestId }),
      ]);
      return { reservationId, balance: account.balance };
    });
}
