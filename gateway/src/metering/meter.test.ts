import { describe, expect, it } from 'vitest';
import type { GatewayContext } from '../context';
import { debitForOperation } from './meter';

/** Billing's credit procedures with a settle that fails, as a lost connection or a store error would. */
function contextWithFailingSettle() {
  const logged: { fields: Record<string, unknown>; message: string }[] = [];
  const calls: string[] = [];
  const ctx = {
    requestId: 'req_settle',
    principal: { accountId: 'acct_1', scheme: 'demoUser', scopes: 'owner' },
    credits: {},
    log: { error: (fields: Record<string, unknown>, message: string) => logged.push({ fields, message }) },
    services: {
      billing: {
        credits: {
          reserve: {
            mutate: async () => {
              calls.push('reserve');
              return { reservationId: 'res_1', balance: 7 };
            },
          },
          settle: {
            mutate: async () => {
              calls.push('settle');
              throw new Error('billing store unavailable');
            },
          },
          refund: {
            mutate: async () => {
              calls.push('refund');
              return { refunded: 3, balance: 10 };
            },
          },
        },
      },
    },
  } as unknown as GatewayContext;
  return { ctx, logged, calls };
}

describe('settling after the work is done (issue 13)', () => {
  it('a failed settle does not fail the request: the amount due is reported, the hold is left and logged for reconciliation', async () => {
    const { ctx, logged, calls } = contextWithFailingSettle();
    const debit = await debitForOperation(ctx, 'getVideo', 3);
    await expect(debit.settle(2)).resolves.toBeUndefined();
    expect(ctx.credits).toMatchObject({ charged: 2, remaining: 7 });
    // Neither refunded (the work was done) nor retried here: the reservation stays held.
    expect(calls).toEqual(['reserve', 'settle']);
    expect(logged).toEqual([
      {
        fields: expect.objectContaining({ reservationId: 'res_1', operation: 'getVideo', amount: 2 }),
        message: expect.stringContaining('reconcile'),
      },
    ]);
  });
});
