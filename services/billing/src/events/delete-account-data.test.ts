import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingAccountDeleted, type EventData, type EventEnvelope } from '@vrs/contracts';
import { rootLogger } from '@vrs/kit';
import { eventually } from '@vrs/testing/api-client';
import { allLedgerEntries, startBilling, startingCredits, type BillingHarness } from '../testing/billing-harness';
import { createBillingRepo } from '../repo';
import { createDeleteAccountDataHandler } from './delete-account-data';
import { eventRequestContext } from '@vrs/bus';

function eventOf(data: EventData<typeof billingAccountDeleted>): EventEnvelope<EventData<typeof billingAccountDeleted>> {
  return { id: randomUUID(), type: billingAccountDeleted.type, occurredAt: new Date().toISOString(), data };
}

let billing: BillingHarness;
beforeAll(async () => {
  billing = await startBilling();
});
afterAll(() => billing?.remove());

/** An account with a key, an open hold and a settled one. */
async function accountWithData(demoUser?: string) {
  const { accountId } = demoUser
    ? await billing.call.accounts.ensureDemo({ demoUser })
    : await billing.call.accounts.create({ name: 'Ada Lovelace' });
  const key = await billing.call.apiKeys.create({ accountId, name: 'laptop' });
  const open = await billing.call.credits.reserve({ accountId, amount: 7, operation: 'createProject' });
  const settled = await billing.call.credits.reserve({ accountId, amount: 3, operation: 'getVideo' });
  await billing.call.credits.settle({ reservationId: settled.reservationId, amount: 3 });
  return { accountId, key: key.key, openReservationId: open.reservationId };
}

describe('account deletion in billing', () => {
  it('revokes every key at once, anonymises the account, and the event removes only its holds and keys', async () => {
    const deleted = await accountWithData();
    const kept = await accountWithData();
    const accounts = billing.store.collection('accounts');
    expect(await accounts.findOne({ _id: deleted.accountId })).toMatchObject({ name: 'Ada Lovelace' });

    const result = await billing.call.accounts.delete({ accountId: deleted.accountId });
    expect(result).toEqual({ accountId: deleted.accountId, deletedAt: expect.any(String) });
    expect(await billing.call.apiKeys.verify({ key: deleted.key })).toBeNull();
    expect(await billing.call.apiKeys.verify({ key: kept.key })).toMatchObject({ accountId: kept.accountId });
    // A replica still trusting a cached key cannot spend for the deleted account either.
    await expect(billing.call.credits.reserve({ accountId: deleted.accountId, amount: 1, operation: 'getVideo' })).rejects.toMatchObject({
      cause: { code: 'ACCOUNT_DELETED', status: 401 },
    });
    await expect(billing.call.apiKeys.create({ accountId: deleted.accountId })).rejects.toMatchObject({
      cause: { code: 'ACCOUNT_NOT_FOUND' },
    });
    // Published through the outbox once the deletion committed: billing's own consumer removes its part.
    const reservations = billing.store.collection('reservations');
    const outbox = billing.store.collection('outbox');
    await eventually(async () => ((await reservations.countDocuments({ accountId: deleted.accountId })) === 0 ? true : undefined));

    // Handled twice (a redelivery) besides the module's own consumer: the same end state.
    const repo = createBillingRepo(billing.store, { reservationTtlMs: 60_000 });
    const handle = createDeleteAccountDataHandler({ repo, store: billing.store, logger: rootLogger.child({}, { level: 'silent' }) });
    const event = eventOf({ accountId: deleted.accountId, deletedAt: result.deletedAt });
    await handle(event, eventRequestContext(event));
    await handle(event, eventRequestContext(event));

    const apiKeys = billing.store.collection('apiKeys');
    expect(await reservations.countDocuments({ accountId: deleted.accountId })).toBe(0);
    expect(await apiKeys.countDocuments({ accountId: deleted.accountId })).toBe(0);
    expect(await reservations.countDocuments({ accountId: kept.accountId })).toBe(2);
    expect(await apiKeys.countDocuments({ accountId: kept.accountId })).toBe(1);
    expect(await outbox.countDocuments({ 'data.accountId': deleted.accountId })).toBe(0);

    // The account stays for accounting, without its name; the open hold went back to the balance.
    const account = await accounts.findOne({ _id: deleted.accountId });
    expect(account).toMatchObject({ name: null, deletedAt: result.deletedAt, reserved: 0, spent: 3, balance: startingCredits - 3 });
    // The ledger is kept: the grant and the charge (the released hold charged nothing, ADR 0083).
    const ledger = await allLedgerEntries(billing.call, deleted.accountId);
    expect(ledger.map((entry) => entry.kind).sort()).toEqual(['charge', 'grant']);
    expect(ledger.map((entry) => entry.requestId)).toEqual(ledger.map(() => null));
    expect((await allLedgerEntries(billing.call, kept.accountId)).every((entry) => entry.requestId === 'req_test')).toBe(true);
    expect((await billing.call.status.get({ accountId: kept.accountId })).credits).toMatchObject({ reserved: 7 });
  });

  it('a second deletion is ACCOUNT_NOT_FOUND and changes nothing', async () => {
    const { accountId } = await billing.call.accounts.create({});
    const first = await billing.call.accounts.delete({ accountId });
    await expect(billing.call.accounts.delete({ accountId })).rejects.toMatchObject({ cause: { code: 'ACCOUNT_NOT_FOUND', status: 404 } });
    await expect(billing.call.accounts.delete({ accountId: 'acct_missing' })).rejects.toMatchObject({
      cause: { code: 'ACCOUNT_NOT_FOUND' },
    });
    expect(await billing.store.collection('accounts').findOne({ _id: accountId })).toMatchObject({ deletedAt: first.deletedAt });
  });

  it('refuses a demo value whose account was deleted, rather than opening a new account for it', async () => {
    const { accountId } = await accountWithData('deleted-demo');
    await billing.call.accounts.delete({ accountId });
    await expect(billing.call.accounts.ensureDemo({ demoUser: 'deleted-demo' })).rejects.toMatchObject({
      cause: { code: 'ACCOUNT_DELETED', status: 401 },
    });
    expect(await billing.store.collection('accounts').countDocuments({ demoUser: 'deleted-demo' })).toBe(1);
  });
});
