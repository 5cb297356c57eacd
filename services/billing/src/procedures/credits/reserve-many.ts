import { reserveManyInputSchema, reserveManySchema } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { BillingDeps } from '../../billing-deps';
import { refusalOf } from './reserve';

/**
 * `credits.reserve` for many operations at once, in one store transaction (ADR 0083): the gateway
 * sends the holds of the requests that arrived while its previous call was in flight. Each item is
 * held or refused on its own, as a call of its own would have been, and answered in order.
 */
export function reserveManyCredits({ repo }: BillingDeps) {
  return procedure
    .input(reserveManyInputSchema)
    .output(reserveManySchema)
    .mutation(async ({ input: { items }, ctx }) => {
      const outcomes = await repo.reserveMany(items.map((item) => ({ ...item, requestId: item.requestId ?? ctx.requestId })));
      return {
        results: items.map(({ amount }, i) => {
          const outcome = outcomes[i];
          if (outcome === undefined) throw new Error(`the holds answered ${outcomes.length} outcomes for ${items.length} items`);
          if (!outcome.refused) return { ok: true as const, reservationId: outcome.reservationId, balance: outcome.balance };
          const { code, message, details } = refusalOf(outcome, amount);
          return { ok: false as const, code, message, ...(details ? { details: details as Record<string, unknown> } : {}) };
        }),
      };
    });
}
