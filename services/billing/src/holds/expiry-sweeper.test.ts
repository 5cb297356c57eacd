import { rootLogger } from '@vrs/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBillingRepo } from '../repo';
import { allLedgerEntries, reservationTtlMs, startBilling, startingCredits, sumOf, type BillingHarness } from '../testing/billing-harness';
import { createExpirySweeper } from './expiry-sweeper';

let now = Date.parse('2026-03-01T12:00:00.000Z');
const clock = () => now;
let billing: BillingHarness;
let sweeper: ReturnType<typeof createExpirySweeper>;

beforeAll(async () => {
  billing = await startBilling({ clock });
  const repo = createBillingRepo(billing.store, { clock, reservationTtlMs });
  sweeper = createExpirySweeper({ repo, clock, intervalMs: 60_000, logger: rootLogger.child({}, { level: 'silent' }) });
});
afterAll(() => billing?.remove());

async function newAccount() {
  return (await billing.call.accounts.create({})).accountId;
}

/** balance = granted − spent − reserved, and the ledger adds up to the balance. */
async function consistentCredits(accountId: string) {
  const { credits } = await billing.call.status.get({ accountId });
  expect(credits.balance).toBe(credits.granted - credits.spent - credits.reserved);
  // Holds are not ledger lines (ADR 0083): the ledger is the balance once nothing is held.
  expect(sumOf(await allLedgerEntries(billing.call, accountId))).toBe(credits.granted - credits.spent);
  return credits;
}

describe('reservation expiry', () => {
  it('returns holds nobody settled once their time to live has passed, and only then', async () => {
    const accountId = await newAccount();
    const first = await billing.call.credits.reserve({ accountId, amount: 5, operation: 'getVideo' });
    now += reservationTtlMs / 2;
    const second = await billing.call.credits.reserve({ accountId, amount: 7, operation: 'getVideo' });
    expect(await sweeper.sweepOnce()).toBe(0);
    expect(await consistentCredits(accountId)).toMatchObject({ balance: startingCredits - 12, reserved: 12 });

    now += reservationTtlMs / 2;
    expect(await sweeper.sweepOnce()).toBe(1);
    expect(await consistentCredits(accountId)).toMatchObject({ balance: startingCredits - 7, reserved: 7 });
    now += reservationTtlMs;
    expect(await sweeper.sweepOnce()).toBe(1);
    expect(await consistentCredits(accountId)).toEqual({ balance: startingCredits, reserved: 0, granted: startingCredits, spent: 0 });
    // Both came back uncharged: the ledger holds only the grant.
    expect((await allLedgerEntries(billing.call, accountId)).map((entry) => entry.kind)).toEqual(['grant']);
    expect((await billing.call.credits.refund({ reservationId: first.reservationId })).refunded).toBe(5);
    expect((await billing.call.credits.refund({ reservationId: second.reservationId })).refunded).toBe(7);
    expect(await sweeper.sweepOnce()).toBe(0);
  });

  it('answers a refund of an expired hold without returning it twice', async () => {
    const accountId = await newAccount();
    const { reservationId } = await billing.call.credits.reserve({ accountId, amount: 4, operation: 'getVideo' });
    now += reservationTtlMs;
    await sweeper.sweepOnce();
    expect(await billing.call.credits.refund({ reservationId })).toEqual({ refunded: 4, balance: startingCredits });
    expect(await consistentCredits(accountId)).toMatchObject({ balance: startingCredits, reserved: 0 });
  });

  it('charges a settle that came after expiry from the balance, once, or nothing when the balance is short', async () => {
    const accountId = await newAccount();
    const late = await billing.call.credits.reserve({ accountId, amount: 4, operation: 'getVideo' });
    now += reservationTtlMs;
    await sweeper.sweepOnce();
    expect(await billing.call.credits.settle({ reservationId: late.reservationId, amount: 3 })).toEqual({
      charged: 3,
      balance: startingCredits - 3,
    });
    expect(await billing.call.credits.settle({ reservationId: late.reservationId, amount: 3 })).toEqual({
      charged: 3,
      balance: startingCredits - 3,
    });
    expect(await consistentCredits(accountId)).toEqual({ balance: startingCredits - 3, reserved: 0, granted: startingCredits, spent: 3 });

    const expired = await billing.call.credits.reserve({ accountId, amount: 2, operation: 'getVideo' });
    now += reservationTtlMs;
    await sweeper.sweepOnce();
    // Another operation holds the whole balance when the late settle arrives.
    await billing.call.credits.reserve({ accountId, amount: startingCredits - 3, operation: 'getVideo' });
    expect(await billing.call.credits.settle({ reservationId: expired.reservationId, amount: 2 })).toEqual({ charged: 0, balance: 0 });
    expect(await consistentCredits(accountId)).toEqual({ balance: 0, reserved: startingCredits - 3, granted: startingCredits, spent: 3 });
  });
});
