import { rootLogger } from '@vrs/kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBillingRepo } from '../repo';
import type { AccountDoc } from '../repo/accounts';
import { allLedgerEntries, reservationTtlMs, startBilling, sumOf, type BillingHarness } from '../testing/billing-harness';
import { createRenewalSweeper } from './renewal-sweeper';

const opened = Date.parse('2027-01-31T10:00:00.000Z');
const secondPeriod = Date.parse('2027-02-28T10:00:00.000Z');
const thirdPeriod = Date.parse('2027-03-31T10:00:00.000Z');
const freeCredits = 1000;
const proCredits = 20_000;
let now = opened;
const clock = () => now;
let billing: BillingHarness;

/** A sweeper with its own repository over the shared store, as another billing replica would have. */
function newSweeper() {
  const repo = createBillingRepo(billing.store, { clock, reservationTtlMs });
  return createRenewalSweeper({ repo, clock, intervalMs: 60_000, logger: rootLogger.child({}, { level: 'silent' }) });
}

beforeEach(async () => {
  now = opened;
  billing = await startBilling({ clock });
});
afterEach(() => billing?.remove());

async function newAccount() {
  return (await billing.call.accounts.create({})).accountId;
}

async function spend(accountId: string, amount: number) {
  const { reservationId } = await billing.call.credits.reserve({ accountId, amount, operation: 'createAnswer' });
  await billing.call.credits.settle({ reservationId, amount });
}

/** The status, after checking balance = granted − spent − reserved and that the ledger adds up to the balance. */
async function consistentStatus(accountId: string) {
  const status = await billing.call.status.get({ accountId });
  const { credits } = status;
  expect(credits.balance).toBe(credits.granted - credits.spent - credits.reserved);
  expect(sumOf(await allLedgerEntries(billing.call, accountId))).toBe(credits.balance);
  return status;
}

async function grantLines(accountId: string, kind: 'renewal' | 'upgrade') {
  const entries = await allLedgerEntries(billing.call, accountId);
  return entries.filter((entry) => entry.kind === 'grant' && entry.id.startsWith(`led_${kind}_`)).map((entry) => [entry.id, entry.amount]);
}

const renewalId = (accountId: string, periodStart: number) => `led_renewal_${accountId}_${periodStart}`;

describe('monthly renewal', () => {
  it('renews each period once at its start, topping the balance up to the allowance', async () => {
    const sweeper = newSweeper();
    const accountId = await newAccount();
    await spend(accountId, 30);
    now = secondPeriod - 1;
    expect(await sweeper.sweepOnce()).toBe(0);

    now = secondPeriod;
    expect(await sweeper.sweepOnce()).toBe(1);
    expect(await sweeper.sweepOnce()).toBe(0);
    const renewed = await consistentStatus(accountId);
    expect(renewed.subscription).toEqual({
      status: 'active',
      currentPeriodStart: '2027-02-28T10:00:00.000Z',
      currentPeriodEnd: '2027-03-31T10:00:00.000Z',
      cancelAtPeriodEnd: false,
    });
    expect(renewed.credits.balance).toBe(freeCredits);
    // The starting grant was 50, 30 of it spent: 980 tops the balance up to the allowance.
    expect(await grantLines(accountId, 'renewal')).toEqual([[renewalId(accountId, secondPeriod), freeCredits - 20]]);

    await spend(accountId, 100);
    now = thirdPeriod + 5_000;
    expect(await sweeper.sweepOnce()).toBe(1);
    expect((await consistentStatus(accountId)).credits.balance).toBe(freeCredits);
    expect(await grantLines(accountId, 'renewal')).toEqual([
      [renewalId(accountId, thirdPeriod), 100],
      [renewalId(accountId, secondPeriod), freeCredits - 20],
    ]);
  });

  it('does not stack unused credits, records a renewal that found the allowance covered, and skips missed periods', async () => {
    const sweeper = newSweeper();
    const { accountId } = await billing.call.accounts.create({ initialCredits: 5000 });
    now = Date.parse('2027-06-01T00:00:00.000Z');
    expect(await sweeper.sweepOnce()).toBe(1);
    const status = await consistentStatus(accountId);
    expect(status.credits.balance).toBe(5000);
    expect(status.subscription.currentPeriodStart).toBe('2027-05-31T10:00:00.000Z');
    expect(await grantLines(accountId, 'renewal')).toEqual([[renewalId(accountId, Date.parse('2027-05-31T10:00:00.000Z')), 0]]);
  });

  it('grants once when two sweepers and direct renewals race over the same accounts', async () => {
    const accounts = await Promise.all(Array.from({ length: 12 }, () => newAccount()));
    now = secondPeriod;
    const repo = createBillingRepo(billing.store, { clock, reservationTtlMs });
    const [a, b] = [newSweeper(), newSweeper()];
    const [renewedByA, renewedByB, ...direct] = await Promise.all([
      a.sweepOnce(),
      b.sweepOnce(),
      ...accounts.slice(0, 4).map((accountId) => repo.renew(accountId)),
    ]);
    const renewedDirectly = direct.filter((outcome) => outcome.kind === 'renewed').length;
    expect(renewedByA + renewedByB + renewedDirectly).toBe(accounts.length);
    for (const accountId of accounts) {
      expect(await grantLines(accountId, 'renewal')).toEqual([[renewalId(accountId, secondPeriod), freeCredits - 50]]);
      expect((await consistentStatus(accountId)).credits).toMatchObject({ balance: freeCredits, granted: freeCredits });
    }
  });

  it('moves a past_due account on without a grant; paying again grants the skipped period once', async () => {
    const sweeper = newSweeper();
    const accountId = await newAccount();
    await billing.call.subscriptions.setPlan({ accountId, plan: 'free', status: 'past_due' });
    now = secondPeriod;
    expect(await sweeper.sweepOnce()).toBe(1);
    const pastDue = await consistentStatus(accountId);
    expect(pastDue.subscription).toMatchObject({ status: 'past_due', currentPeriodStart: '2027-02-28T10:00:00.000Z' });
    expect(pastDue.credits.balance).toBe(50);
    expect(await grantLines(accountId, 'renewal')).toEqual([]);

    now += 86_400_000;
    const paid = await billing.call.subscriptions.setPlan({ accountId, plan: 'free' });
    expect(paid.subscription.status).toBe('active');
    expect(paid.credits.balance).toBe(freeCredits);
    await billing.call.subscriptions.setPlan({ accountId, plan: 'free', status: 'past_due' });
    await billing.call.subscriptions.setPlan({ accountId, plan: 'free', status: 'active' });
    expect(await grantLines(accountId, 'renewal')).toEqual([[renewalId(accountId, secondPeriod), freeCredits - 50]]);
    await consistentStatus(accountId);
  });

  it('upgrades at once (topped up to the new allowance, once per period); a canceled plan runs to the period end, then free', async () => {
    const sweeper = newSweeper();
    const accountId = await newAccount();
    now += 86_400_000;
    const pro = await billing.call.subscriptions.setPlan({ accountId, plan: 'pro' });
    expect(pro).toMatchObject({ plan: 'pro', planLimits: { monthlyCredits: proCredits }, credits: { balance: proCredits } });
    await spend(accountId, 1000);
    await billing.call.subscriptions.setPlan({ accountId, plan: 'free' });
    await billing.call.subscriptions.setPlan({ accountId, plan: 'pro' });
    expect(await grantLines(accountId, 'upgrade')).toEqual([[`led_upgrade_pro_${accountId}_${opened}`, proCredits - 50]]);

    const canceled = await billing.call.subscriptions.setPlan({ accountId, plan: 'pro', status: 'canceled' });
    expect(canceled).toMatchObject({ plan: 'pro', subscription: { status: 'cancelled', cancelAtPeriodEnd: true } });
    now = secondPeriod;
    expect(await sweeper.sweepOnce()).toBe(1);
    const fellBack = await consistentStatus(accountId);
    expect(fellBack).toMatchObject({
      plan: 'free',
      subscription: { status: 'active', cancelAtPeriodEnd: false, currentPeriodStart: '2027-02-28T10:00:00.000Z' },
      planLimits: { monthlyCredits: freeCredits },
      // Nothing is taken away: the unused pro credits stay, and the free allowance adds nothing.
      credits: { balance: proCredits - 1000 },
    });
    expect(await grantLines(accountId, 'renewal')).toEqual([[renewalId(accountId, secondPeriod), 0]]);
  });

  it('gives an account opened before subscriptions its current period, without a grant', async () => {
    const legacy: AccountDoc = {
      _id: 'acct_legacy',
      name: null,
      plan: 'free',
      subscription: { status: 'none', currentPeriodEnd: null },
      balance: 10,
      reserved: 0,
      granted: 10,
      spent: 0,
      createdAt: '2026-06-15T08:00:00.000Z',
    };
    await billing.store.collection<AccountDoc>('accounts').insertOne(legacy);
    expect((await billing.call.status.get({ accountId: legacy._id })).subscription).toEqual({
      status: 'none',
      currentPeriodStart: null,
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
    });
    await newSweeper().sweepOnce();
    const adopted = await billing.call.status.get({ accountId: legacy._id });
    expect(adopted.subscription).toEqual({
      status: 'active',
      currentPeriodStart: '2027-01-15T08:00:00.000Z',
      currentPeriodEnd: '2027-02-15T08:00:00.000Z',
      cancelAtPeriodEnd: false,
    });
    expect(adopted.credits.balance).toBe(10);
  });

  it('refuses a plan change of an unknown account with ACCOUNT_NOT_FOUND', async () => {
    await expect(billing.call.subscriptions.setPlan({ accountId: 'acct_missing', plan: 'pro' })).rejects.toMatchObject({
      cause: { code: 'ACCOUNT_NOT_FOUND', status: 404 },
    });
  });
});
