import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryBus } from '@vrs/bus';
import { createBillingModule, type BillingRouter } from '@vrs/billing';
import { createServiceClient, rootLogger, type ServiceModule } from '@vrs/kit';
import { openStore, type Store } from '@vrs/store';
import type { GatewayContext } from '../context';
import type { GatewayServices } from '../services';
import { createCreditCalls, groupCommit } from './credit-calls';
import { debitForOperation } from './meter';

const log = rootLogger.child({}, { level: 'silent' });
let dataDir: string;
let store: Store;
let billingModule: ServiceModule<BillingRouter>;
let billing: GatewayServices['billing'];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'vrs-credit-calls-'));
  store = await openStore({ service: 'billing', dataDir });
  billingModule = await createBillingModule({
    store,
    bus: createMemoryBus(),
    logger: log,
    config: { startingCredits: 0, reservationTtlMs: 60_000, sweepIntervalMs: 60_000, passwordScryptLogN: 12 },
  });
  await billingModule.start();
  // As the gateway calls it in-process.
  billing = createServiceClient<BillingRouter>({ mode: 'inprocess', router: billingModule.router, caller: 'gateway' });
});
afterAll(async () => {
  await billingModule.stop();
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Billing's credit procedures, counting calls; `lose` makes the next closeMany calls fail as a lost answer would, before or after billing ran them. */
function observedBilling() {
  const seen = { reserveCalls: 0, closeCalls: 0, loseCloses: 0, loseAfterCommit: false };
  const noAnswer = () => TRPCClientError.from(new Error('socket hang up'));
  const client = {
    credits: {
      reserveMany: {
        mutate: (input: Parameters<GatewayServices['billing']['credits']['reserveMany']['mutate']>[0]) => {
          seen.reserveCalls++;
          return billing.credits.reserveMany.mutate(input);
        },
      },
      closeMany: {
        mutate: async (input: Parameters<GatewayServices['billing']['credits']['closeMany']['mutate']>[0]) => {
          seen.closeCalls++;
          if (seen.loseCloses > 0) {
            seen.loseCloses--;
            if (seen.loseAfterCommit) await billing.credits.closeMany.mutate(input);
            throw noAnswer();
          }
          return billing.credits.closeMany.mutate(input);
        },
      },
    },
  } as unknown as GatewayServices['billing'];
  return { client, seen };
}

async function newAccount(initialCredits: number) {
  return (await billing.accounts.create.mutate({ initialCredits })).accountId;
}

async function figures(accountId: string) {
  const { credits } = await billing.status.get.query({ accountId });
  const { data } = await billing.ledger.list.query({ accountId, limit: 100 });
  return { ...credits, ledger: data.map(({ kind, amount, operation }) => `${kind} ${amount} ${operation ?? ''}`.trim()) };
}

function contextOf(accountId: string, requestId: string) {
  return { requestId, principal: { accountId }, credits: {} } as unknown as GatewayContext;
}

describe('group commit', () => {
  /** A send that records its batches and answers after 20 ms. */
  function recordedSend(maxItems: number) {
    const batches: number[][] = [];
    const send = groupCommit(async (items: number[]) => {
      batches.push(items);
      await new Promise((resolve) => setTimeout(resolve, 20));
      return items.map((item) => item * 10);
    }, maxItems);
    return { batches, send };
  }

  it("sends one tick's items together, then what arrived during each call, answering each its own result", async () => {
    const { batches, send } = recordedSend(4);
    const results = await Promise.all(Array.from({ length: 9 }, (_, i) => send(i)));
    expect(results).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80]);
    expect(batches).toEqual([[0, 1, 2, 3], [4, 5, 6, 7], [8]]);
  });

  it('gathers items that promise jobs of the same tick send, however many awaits each took to get there', async () => {
    const { batches, send } = recordedSend(100);
    const results = await Promise.all(
      Array.from({ length: 5 }, async (_, i) => {
        for (let step = 0; step < i * 3; step++) await null;
        return send(i);
      }),
    );
    expect(results).toEqual([0, 10, 20, 30, 40]);
    expect(batches).toEqual([[0, 1, 2, 3, 4]]);
  });

  it('gathers an item sent from a callback with those its promise jobs send', async () => {
    const { batches, send } = recordedSend(100);
    const results = await new Promise<number[]>((resolve) => {
      setImmediate(() => {
        const first = send(1);
        void Promise.resolve().then(() => resolve(Promise.all([first, send(2)])));
      });
    });
    expect(results).toEqual([10, 20]);
    expect(batches).toEqual([[1, 2]]);
  });

  it('sends an item of a later tick once the call in flight has answered', async () => {
    const { batches, send } = recordedSend(100);
    const first = send(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([[1]]);
    const second = send(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([[1]]);
    expect(await Promise.all([first, second])).toEqual([10, 20]);
    expect(batches).toEqual([[1], [2]]);
  });
});

describe('credit calls over the real billing module (ADR 0083)', () => {
  it('30 requests at once on 10 credits: 10 charged, 20 refused with the real balance, in a few billing calls', async () => {
    const accountId = await newAccount(10);
    const { client, seen } = observedBilling();
    const calls = createCreditCalls(client, log);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 30 }, async (_, i) => {
        const ctx = contextOf(accountId, `req_${i}`);
        const debit = await debitForOperation(ctx, accountId, calls, 'searchPrivateEvidence', 1);
        await debit.settle(1);
        return ctx.credits;
      }),
    );
    const served = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(served).toHaveLength(10);
    for (const { reason } of refused) expect(reason).toMatchObject({ code: 'INSUFFICIENT_CREDITS', details: { balance: 0, required: 1 } });
    expect(served.reduce((sum, outcome) => sum + (outcome.value.charged ?? 0), 0)).toBe(10);
    expect(Math.min(...served.map((outcome) => outcome.value.remaining!))).toBe(0);
    expect(seen.reserveCalls).toBeLessThan(30);
    expect(seen.closeCalls).toBeLessThan(10);
    const after = await figures(accountId);
    expect(after).toMatchObject({ balance: 0, reserved: 0, spent: 10 });
    expect(after.ledger).toEqual([...Array(10).fill('charge -1 searchPrivateEvidence'), 'grant 10']);
  });

  it('a settle billing does not answer is a 503 that charged nothing; once billing answers, the hold is back', async () => {
    const accountId = await newAccount(10);
    const { client, seen } = observedBilling();
    const calls = createCreditCalls(client, log);
    const ctx = contextOf(accountId, 'req_lost');
    const debit = await debitForOperation(ctx, accountId, calls, 'getVideo', 3);
    seen.loseCloses = 2;
    await expect(debit.settle(3)).rejects.toMatchObject({ code: 'BILLING_UNAVAILABLE', status: 503, details: { charged: 0 } });
    expect(ctx.credits.charged).toBe(0);
    // The cancel is tried again (the first retry lost too) until billing takes it.
    await calls.close();
    expect(await figures(accountId)).toMatchObject({ balance: 7, reserved: 3 });
    await calls.close();
    expect(await figures(accountId)).toMatchObject({ balance: 10, reserved: 0, spent: 0, ledger: ['grant 10'] });
  });

  it('a settle that committed but whose answer was lost is given back: the client was told it was not charged', async () => {
    const accountId = await newAccount(10);
    const { client, seen } = observedBilling();
    const calls = createCreditCalls(client, log);
    const ctx = contextOf(accountId, 'req_committed');
    const debit = await debitForOperation(ctx, accountId, calls, 'getVideo', 3);
    seen.loseCloses = 1;
    seen.loseAfterCommit = true;
    await expect(debit.settle(3)).rejects.toMatchObject({ code: 'BILLING_UNAVAILABLE' });
    expect(await figures(accountId)).toMatchObject({ balance: 7, spent: 3 });
    await calls.close();
    expect(await figures(accountId)).toMatchObject({
      balance: 10,
      reserved: 0,
      spent: 0,
      ledger: ['refund 3 getVideo', 'charge -3 getVideo', 'grant 10'],
    });
  });
});
