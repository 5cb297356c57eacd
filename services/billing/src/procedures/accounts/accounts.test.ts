import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allLedgerEntries, startBilling, startingCredits, type BillingHarness } from '../../testing/billing-harness';

let billing: BillingHarness;
beforeAll(async () => {
  billing = await startBilling();
});
afterAll(() => billing?.remove());

describe('demo accounts', () => {
  it('gives each demo user one isolated account with the starting grant', async () => {
    const alice = await billing.call.accounts.ensureDemo({ demoUser: 'alice' });
    const bob = await billing.call.accounts.ensureDemo({ demoUser: 'bob' });
    expect(alice.accountId).not.toBe(bob.accountId);
    expect(await billing.call.accounts.ensureDemo({ demoUser: 'alice' })).toEqual(alice);

    await billing.call.credits.reserve({ accountId: alice.accountId, amount: 5, operation: 'createProject' });
    expect((await billing.call.status.get({ accountId: bob.accountId })).credits.balance).toBe(startingCredits);
    expect((await billing.call.status.get({ accountId: alice.accountId })).credits.balance).toBe(startingCredits - 5);
  });

  it('20 simultaneous first requests for one demo user open one account with one grant', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => billing.call.accounts.ensureDemo({ demoUser: 'race' })));
    const accountIds = new Set(results.map((result) => result.accountId));
    expect(accountIds.size).toBe(1);
    const [accountId] = accountIds;

    expect(await billing.store.collection('accounts').countDocuments({ demoUser: 'race' })).toBe(1);
    const grants = (await allLedgerEntries(billing.call, accountId!)).filter((entry) => entry.kind === 'grant');
    expect(grants).toMatchObject([{ amount: startingCredits }]);
    expect((await billing.call.status.get({ accountId: accountId! })).credits).toEqual({
      balance: startingCredits,
      reserved: 0,
      granted: startingCredits,
      spent: 0,
    });
  });

  it('ordinary accounts, which have no demo user, do not collide with each other', async () => {
    const first = await billing.call.accounts.create({});
    const second = await billing.call.accounts.create({});
    expect(first.accountId).not.toBe(second.accountId);
  });
});

describe('status', () => {
  it('an unknown account is ACCOUNT_NOT_FOUND', async () => {
    await expect(billing.call.status.get({ accountId: 'acct_missing' })).rejects.toMatchObject({
      cause: { code: 'ACCOUNT_NOT_FOUND', status: 404 },
    });
  });

  it('health reports the store', async () => {
    expect(await billing.call.health()).toMatchObject({ ok: true, dependencies: { store: { ok: true } } });
  });
});
