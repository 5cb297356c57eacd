import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryBus } from '@vrs/bus';
import { createBillingModule } from '@vrs/billing';
import { type AppError, createServiceClient, rootLogger, type ServiceModule } from '@vrs/kit';
import { openStore, type Store } from '@vrs/store';
import type { BillingRouter } from '@vrs/billing';
import type { TRPCClient } from '@trpc/client';
import { createCreditLeases, leaseBillingOf, type CreditLeaseSettings } from './credit-leases';

const log = rootLogger.child({}, { level: 'silent' });
let dataDir: string;
let store: Store;
let billingModule: ServiceModule<BillingRouter>;
let billing: TRPCClient<BillingRouter>;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'vrs-leases-'));
  store = await openStore({ service: 'billing', dataDir });
  billingModule = await createBillingModule({
    store,
    bus: createMemoryBus(),
    logger: log,
    config: { startingCredits: 0, reservationTtlMs: 60_000, sweepIntervalMs: 60_000, passwordScryptLogN: 12 },
  });
  await billingModule.start();
  // As the gateway calls it in-process: through a tRPC client, whose errors the leases translate.
  billing = createServiceClient<BillingRouter>({ mode: 'inprocess', router: billingModule.router, caller: 'gateway' });
});
afterAll(async () => {
  await billingModule.stop();
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

function leasesOf(settings: Partial<CreditLeaseSettings> = {}) {
  return createCreditLeases(leaseBillingOf(billing), { credits: 4, idleMs: 60_000, maxAgeMs: 60_000, log, ...settings });
}

/** Leases over the real billing module that note the amount of every reservation they ask for. */
function leasesNotingReservations(settings: Partial<CreditLeaseSettings> = {}) {
  const reserved: number[] = [];
  const leaseBilling = leaseBillingOf(billing);
  const leases = createCreditLeases(
    {
      ...leaseBilling,
      reserve: (input) => {
        reserved.push(input.amount);
        return leaseBilling.reserve(input);
      },
    },
    { credits: 4, idleMs: 60_000, maxAgeMs: 60_000, log, ...settings },
  );
  return { leases, reserved };
}

/** The account's counters, and the ledger summed: billing's own view after the leases went back. */
async function accountFigures(accountId: string) {
  const { credits } = await billing.status.get.query({ accountId });
  let ledgerSum = 0;
  let cursor: string | undefined;
  for (;;) {
    const page = await billing.ledger.list.query({ accountId, limit: 100, cursor });
    ledgerSum += page.data.reduce((sum, entry) => sum + entry.amount, 0);
    if (page.nextCursor === null) break;
    cursor = page.nextCursor;
  }
  return { ...credits, ledgerSum };
}

describe('credit leases (ADR 0039)', () => {
  it('serve exactly as many requests as the balance pays for, never more, and refuse the rest with the 402 figures', async () => {
    const { accountId } = await billing.accounts.create.mutate({ initialCredits: 10 });
    const leases = leasesOf();
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        try {
          const hold = await leases.hold(accountId, 1, 'searchPrivateEvidence', `req_${i}`);
          await new Promise((resolve) => setTimeout(resolve, i % 3));
          return hold.settle(1);
        } catch (error) {
          return { refused: error as AppError };
        }
      }),
    );
    const served = outcomes.filter((o): o is { charged: number; remaining: number } => 'charged' in o);
    const refused = outcomes.filter((o): o is { refused: AppError } => 'refused' in o);
    expect(served).toHaveLength(10);
    expect(served.every((o) => o.charged === 1 && o.remaining >= 0)).toBe(true);
    for (const { refused: error } of refused)
      expect(error).toMatchObject({ code: 'INSUFFICIENT_CREDITS', details: { balance: 0, required: 1 } });
    await leases.returnAccount(accountId);
    expect(await accountFigures(accountId)).toEqual({ balance: 0, reserved: 0, granted: 10, spent: 10, ledgerSum: 0 });
    await leases.close();
  });

  it('charge billing exactly what requests were charged when some fail and are refunded', async () => {
    const { accountId } = await billing.accounts.create.mutate({ initialCredits: 10 });
    const leases = leasesOf();
    const charges = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        try {
          const hold = await leases.hold(accountId, 1, 'searchPrivateEvidence', `req_${i}`);
          await new Promise((resolve) => setTimeout(resolve, i % 3));
          // Every fifth request fails after its hold: refunded, charged nothing.
          if (i % 5 === 0) return hold.refund() && 0;
          return hold.settle(1).charged;
        } catch {
          return 0;
        }
      }),
    );
    const charged = charges.reduce((sum, n) => sum + n, 0);
    expect(charged).toBeGreaterThan(0);
    await leases.close();
    expect(await accountFigures(accountId)).toEqual({
      balance: 10 - charged,
      reserved: 0,
      granted: 10,
      spent: charged,
      ledgerSum: 10 - charged,
    });
  });

  it('hold no more than the balance, answer the balance left as remaining, and give back what was not spent', async () => {
    const { accountId } = await billing.accounts.create.mutate({ initialCredits: 3 });
    const leases = leasesOf({ credits: 50 });
    const hold = await leases.hold(accountId, 2, 'getVideo', 'req_a');
    expect((await billing.status.get.query({ accountId })).credits).toMatchObject({ balance: 0, reserved: 3 });
    expect(hold.settle(1)).toEqual({ charged: 1, remaining: 2 });
    await expect(leases.hold(accountId, 3, 'getVideo', 'req_b')).rejects.toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      details: { balance: 2, required: 3 },
    });
    await leases.close();
    expect(await accountFigures(accountId)).toEqual({ balance: 2, reserved: 0, granted: 3, spent: 1, ledgerSum: 2 });
  });

  it('refuse a price above the balance while a smaller one fits, again and again, and leave the balance whole', async () => {
    const { accountId } = await billing.accounts.create.mutate({ initialCredits: 1 });
    const leases = leasesOf({ credits: 50 });
    for (let round = 0; round < 3; round++) {
      await expect(leases.hold(accountId, 2, 'getVideo', `req_full_${round}`)).rejects.toMatchObject({
        details: { balance: 1, required: 2 },
      });
      expect((await leases.hold(accountId, 1, 'getVideo', `req_saved_${round}`)).refund()).toEqual({ remaining: 1 });
    }
    await leases.returnAccount(accountId);
    expect(await accountFigures(accountId)).toEqual({ balance: 1, reserved: 0, granted: 1, spent: 0, ledgerSum: 1 });
    await leases.close();
  });

  it('go back to billing on their own once idle', async () => {
    const { accountId } = await billing.accounts.create.mutate({ initialCredits: 20 });
    const leases = leasesOf({ idleMs: 50 });
    (await leases.hold(accountId, 1, 'getVideo', 'req_idle')).settle(1);
    expect(leases.openLeases).toBe(1);
    const deadline = Date.now() + 5_000;
    while (leases.openLeases > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(leases.openLeases).toBe(0);
    expect(await accountFigures(accountId)).toEqual({ balance: 19, reserved: 0, granted: 20, spent: 1, ledgerSum: 19 });
    await leases.close();
  });

  it('grow an account’s next lease while each is used up within a second, up to the most, and start small again after a slow one', async () => {
    const { accountId } = await billing.accounts.create.mutate({ initialCredits: 1_000 });
    let now = 0;
    const { leases, reserved } = leasesNotingReservations({ maxCredits: 16, clock: () => now });
    let n = 0;
    const spend = async (requests: number) => {
      for (let i = 0; i < requests; i++) (await leases.hold(accountId, 1, 'getVideo', `req_grow_${n++}`)).settle(1);
    };

    await spend(4 + 8 + 16 + 16);
    expect(reserved).toEqual([4, 8, 16, 16]);
    now += 1_500;
    await spend(1);
    expect(reserved).toEqual([4, 8, 16, 16, 4]);
    await leases.close();
    expect(await accountFigures(accountId)).toEqual({ balance: 955, reserved: 0, granted: 1_000, spent: 45, ledgerSum: 955 });
  });

  it('refuse the requests waiting on a lease billing refused at their price or less at once, without asking billing for each', async () => {
    const { accountId } = await billing.accounts.create.mutate({ initialCredits: 2 });
    const { leases, reserved } = leasesNotingReservations();
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        leases.hold(accountId, 3, 'getVideo', `req_storm_${i}`).then(
          () => 'held',
          (error: AppError) => `${error.code} ${JSON.stringify(error.details)}`,
        ),
      ),
    );

    expect(new Set(outcomes)).toEqual(new Set(['INSUFFICIENT_CREDITS {"balance":2,"required":3}']));
    // The first request's lease (4 credits, then its price of 3) was refused; the other 49 were answered from that refusal.
    expect(reserved.length).toBeLessThanOrEqual(3);
    await leases.close();
    expect(await accountFigures(accountId)).toEqual({ balance: 2, reserved: 0, granted: 2, spent: 0, ledgerSum: 2 });
  });
});
