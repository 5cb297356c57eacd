import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allLedgerEntries, startBilling, startingCredits, sumOf, type BillingHarness } from '../../testing/billing-harness';

let billing: BillingHarness;
beforeAll(async () => {
  billing = await startBilling();
});
afterAll(() => billing?.remove());

async function newAccount(initialCredits?: number) {
  return (await billing.call.accounts.create({ initialCredits })).accountId;
}

async function credits(accountId: string) {
  return (await billing.call.status.get({ accountId })).credits;
}

/**
 * balance = granted − spent − reserved, and the ledger (grants, charges, refunds of charges: holds
 * are not lines, ADR 0083) adds up to granted − spent: the balance once nothing is held.
 */
async function expectConsistent(accountId: string) {
  const status = await credits(accountId);
  expect(status.balance).toBe(status.granted - status.spent - status.reserved);
  expect(sumOf(await allLedgerEntries(billing.call, accountId))).toBe(status.granted - status.spent);
  return status;
}

describe('starting grant', () => {
  it('opens a free account with the configured grant, recorded in the ledger, its first period running a month', async () => {
    const { accountId } = await billing.call.accounts.create({ name: 'Ada' });
    expect(accountId).toMatch(/^acct_[0-9a-f]{32}$/);
    const status = await billing.call.status.get({ accountId });
    const start = status.subscription.currentPeriodStart!;
    expect(Math.abs(Date.parse(start) - Date.now())).toBeLessThan(60_000);
    expect(status).toEqual({
      accountId,
      plan: 'free',
      subscription: { status: 'active', currentPeriodStart: start, currentPeriodEnd: expect.any(String), cancelAtPeriodEnd: false },
      planLimits: { monthlyCredits: 1000, rateLimit: { requestsPerMinute: 600 } },
      credits: { balance: startingCredits, reserved: 0, granted: startingCredits, spent: 0 },
    });
    const entries = await allLedgerEntries(billing.call, accountId);
    expect(entries).toMatchObject([{ kind: 'grant', amount: startingCredits, reservationId: null }]);
  });

  it('grants initialCredits instead when given', async () => {
    const accountId = await newAccount(7);
    expect(await expectConsistent(accountId)).toEqual({ balance: 7, reserved: 0, granted: 7, spent: 0 });
  });
});

describe('reserve, settle, refund', () => {
  it('reserve holds credits and settle charges them', async () => {
    const accountId = await newAccount();
    const reservation = await billing.call.credits.reserve({ accountId, amount: 5, operation: 'createProject', requestId: 'req_a' });
    expect(reservation.balance).toBe(startingCredits - 5);
    expect(await credits(accountId)).toMatchObject({ balance: startingCredits - 5, reserved: 5, spent: 0 });

    expect(await billing.call.credits.settle({ reservationId: reservation.reservationId, amount: 5 })).toEqual({
      charged: 5,
      balance: startingCredits - 5,
    });
    expect(await expectConsistent(accountId)).toEqual({ balance: startingCredits - 5, reserved: 0, granted: startingCredits, spent: 5 });
    const entries = await allLedgerEntries(billing.call, accountId);
    // The hold is not a line; the charge is, naming its operation and request (ADR 0083).
    expect(entries.map(({ kind, amount }) => [kind, amount])).toEqual([
      ['charge', -5],
      ['grant', startingCredits],
    ]);
    expect(entries[0]).toMatchObject({ operation: 'createProject', requestId: 'req_a', reservationId: reservation.reservationId });
  });

  it('settling less than reserved returns the rest to the balance', async () => {
    const accountId = await newAccount();
    const { reservationId } = await billing.call.credits.reserve({ accountId, amount: 10, operation: 'searchPrivateEvidence' });
    expect(await billing.call.credits.settle({ reservationId, amount: 3 })).toEqual({ charged: 3, balance: startingCredits - 3 });
    expect(await expectConsistent(accountId)).toMatchObject({ reserved: 0, spent: 3 });
    expect((await allLedgerEntries(billing.call, accountId))[0]).toMatchObject({ kind: 'charge', amount: -3 });
  });

  it('settling twice charges once and answers the same figures', async () => {
    const accountId = await newAccount();
    const { reservationId } = await billing.call.credits.reserve({ accountId, amount: 4, operation: 'createProject' });
    const first = await billing.call.credits.settle({ reservationId, amount: 2 });
    const second = await billing.call.credits.settle({ reservationId, amount: 2 });
    expect(second).toEqual(first);
    expect(await expectConsistent(accountId)).toMatchObject({ balance: startingCredits - 2, spent: 2, reserved: 0 });
    const charges = (await allLedgerEntries(billing.call, accountId)).filter((entry) => entry.kind === 'charge');
    expect(charges).toHaveLength(1);
  });

  it('concurrent settles of one reservation charge once', async () => {
    const accountId = await newAccount();
    const { reservationId } = await billing.call.credits.reserve({ accountId, amount: 6, operation: 'createProject' });
    const results = await Promise.all(Array.from({ length: 10 }, () => billing.call.credits.settle({ reservationId, amount: 6 })));
    expect(new Set(results.map((result) => result.charged))).toEqual(new Set([6]));
    expect(await expectConsistent(accountId)).toMatchObject({ balance: startingCredits - 6, spent: 6, reserved: 0 });
  });

  it('refuses to settle more than was reserved, or a different amount the second time', async () => {
    const accountId = await newAccount();
    const { reservationId } = await billing.call.credits.reserve({ accountId, amount: 3, operation: 'createProject' });
    await expect(billing.call.credits.settle({ reservationId, amount: 4 })).rejects.toMatchObject({
      cause: { code: 'VALIDATION_FAILED', details: { reserved: 3, amount: 4 } },
    });
    await billing.call.credits.settle({ reservationId, amount: 3 });
    await expect(billing.call.credits.settle({ reservationId, amount: 1 })).rejects.toMatchObject({ cause: { code: 'CONFLICT' } });
    expect(await expectConsistent(accountId)).toMatchObject({ spent: 3 });
  });

  it('refund returns everything reserved, once', async () => {
    const accountId = await newAccount();
    const { reservationId } = await billing.call.credits.reserve({ accountId, amount: 8, operation: 'addProjectEvidence' });
    expect(await billing.call.credits.refund({ reservationId })).toEqual({ refunded: 8, balance: startingCredits });
    expect(await billing.call.credits.refund({ reservationId })).toEqual({ refunded: 8, balance: startingCredits });
    expect(await expectConsistent(accountId)).toEqual({ balance: startingCredits, reserved: 0, granted: startingCredits, spent: 0 });
    // Nothing was charged, so nothing is in the ledger but the grant.
    expect((await allLedgerEntries(billing.call, accountId)).map((entry) => entry.kind)).toEqual(['grant']);
  });

  it('a settled reservation cannot be refunded, nor a refunded one settled', async () => {
    const accountId = await newAccount();
    const settled = await billing.call.credits.reserve({ accountId, amount: 2, operation: 'createProject' });
    await billing.call.credits.settle({ reservationId: settled.reservationId, amount: 2 });
    await expect(billing.call.credits.refund({ reservationId: settled.reservationId })).rejects.toMatchObject({
      cause: { code: 'CONFLICT', details: { status: 'settled' } },
    });
    const refunded = await billing.call.credits.reserve({ accountId, amount: 2, operation: 'createProject' });
    await billing.call.credits.refund({ reservationId: refunded.reservationId });
    await expect(billing.call.credits.settle({ reservationId: refunded.reservationId, amount: 2 })).rejects.toMatchObject({
      cause: { code: 'CONFLICT', details: { status: 'refunded' } },
    });
    expect(await expectConsistent(accountId)).toMatchObject({ balance: startingCredits - 2, spent: 2 });
  });

  it('an unknown reservation is NOT_FOUND', async () => {
    await expect(billing.call.credits.refund({ reservationId: 'res_missing' })).rejects.toMatchObject({ cause: { code: 'NOT_FOUND' } });
  });
});

describe('insufficient credits', () => {
  it('refuses a reservation above the balance with the figures, and changes nothing', async () => {
    const accountId = await newAccount(3);
    await expect(billing.call.credits.reserve({ accountId, amount: 4, operation: 'createProject' })).rejects.toMatchObject({
      cause: { code: 'INSUFFICIENT_CREDITS', status: 402, details: { balance: 3, required: 4 } },
    });
    expect(await expectConsistent(accountId)).toEqual({ balance: 3, reserved: 0, granted: 3, spent: 0 });
    expect(await allLedgerEntries(billing.call, accountId)).toHaveLength(1);
  });

  it('an unknown account is ACCOUNT_NOT_FOUND', async () => {
    await expect(billing.call.credits.reserve({ accountId: 'acct_missing', amount: 1, operation: 'createProject' })).rejects.toMatchObject({
      cause: { code: 'ACCOUNT_NOT_FOUND' },
    });
  });

  it('300 concurrent reservations of 1 against 100 credits: exactly 100 succeed', async () => {
    const accountId = await newAccount(100);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 300 }, (_, i) =>
        billing.call.credits.reserve({ accountId, amount: 1, operation: 'searchPrivateEvidence', requestId: `req_${i}` }),
      ),
    );
    const reserved = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(reserved).toHaveLength(100);
    for (const outcome of refused) expect(outcome.reason).toMatchObject({ cause: { code: 'INSUFFICIENT_CREDITS' } });
    expect(await expectConsistent(accountId)).toEqual({ balance: 0, reserved: 100, granted: 100, spent: 0 });

    // Settle half, refund the other half, all at once: the books must still balance.
    await Promise.all(
      reserved.map(({ value }, i) =>
        i % 2 === 0
          ? billing.call.credits.settle({ reservationId: value.reservationId, amount: 1 })
          : billing.call.credits.refund({ reservationId: value.reservationId }),
      ),
    );
    expect(await expectConsistent(accountId)).toEqual({ balance: 50, reserved: 0, granted: 100, spent: 50 });
  });
});

describe('batches: reserveMany and closeMany (ADR 0083)', () => {
  it('holds each item on its own in one call: what fits is held, the rest refused with the balance left', async () => {
    const accountId = await newAccount(10);
    const other = await newAccount(10);
    const { results } = await billing.call.credits.reserveMany({
      items: [
        { accountId, amount: 4, operation: 'createProject', requestId: 'req_1' },
        { accountId, amount: 7, operation: 'createExport', requestId: 'req_2' },
        { accountId: other, amount: 3, operation: 'createProject', requestId: 'req_3' },
        { accountId, amount: 6, operation: 'createProject', requestId: 'req_4' },
        { accountId: 'acct_missing', amount: 1, operation: 'createProject' },
      ],
    });
    expect(results).toEqual([
      { ok: true, reservationId: expect.any(String), balance: 6 },
      {
        ok: false,
        code: 'INSUFFICIENT_CREDITS',
        message: 'This operation needs 7 credits; the account has 6.',
        details: { balance: 6, required: 7 },
      },
      { ok: true, reservationId: expect.any(String), balance: 7 },
      { ok: true, reservationId: expect.any(String), balance: 0 },
      { ok: false, code: 'ACCOUNT_NOT_FOUND', message: expect.any(String) },
    ]);
    expect(await expectConsistent(accountId)).toEqual({ balance: 0, reserved: 10, granted: 10, spent: 0 });
  });

  it('settles and cancels in one call, each answered on its own, and a cancel gives back a charge already made', async () => {
    const accountId = await newAccount(20);
    const held = await Promise.all([5, 4, 3].map((amount) => billing.call.credits.reserve({ accountId, amount, operation: 'getVideo' })));
    const [a, b, c] = held.map((reservation) => reservation.reservationId) as [string, string, string];
    // `c` was settled, but its caller never learnt it: the cancel gives its charge back.
    await billing.call.credits.settle({ reservationId: c, amount: 3 });
    const { results } = await billing.call.credits.closeMany({
      items: [
        { reservationId: a, outcome: 'settle', amount: 2 },
        { reservationId: b, outcome: 'cancel' },
        { reservationId: c, outcome: 'cancel' },
        { reservationId: a, outcome: 'settle', amount: 9 },
        { reservationId: 'res_missing', outcome: 'settle', amount: 1 },
      ],
    });
    expect(results).toEqual([
      // Held ones close together: each answers the balance after its account's part of the batch.
      { ok: true, charged: 2, balance: 15 },
      { ok: true, charged: 0, balance: 15 },
      { ok: true, charged: 0, balance: 18 },
      { ok: false, code: 'VALIDATION_FAILED', message: expect.any(String), details: { reserved: 5, amount: 9 } },
      { ok: false, code: 'NOT_FOUND', message: expect.any(String) },
    ]);
    expect(await expectConsistent(accountId)).toEqual({ balance: 18, reserved: 0, granted: 20, spent: 2 });
    const lines = (await allLedgerEntries(billing.call, accountId)).map(({ kind, amount, reservationId }) => [kind, amount, reservationId]);
    expect(lines).toEqual([
      ['refund', 3, c],
      ['charge', -2, a],
      ['charge', -3, c],
      ['grant', 20, null],
    ]);
    // A cancel again changes nothing; a settle after a cancel is a conflict.
    const again = await billing.call.credits.closeMany({
      items: [
        { reservationId: c, outcome: 'cancel' },
        { reservationId: b, outcome: 'settle', amount: 4 },
      ],
    });
    expect(again.results).toMatchObject([
      { ok: true, charged: 0 },
      { ok: false, code: 'CONFLICT' },
    ]);
    expect(await expectConsistent(accountId)).toEqual({ balance: 18, reserved: 0, granted: 20, spent: 2 });
  });
});

describe('ledger pages', () => {
  it('pages newest first with limit and nextCursor, without gaps or repeats', async () => {
    const accountId = await newAccount();
    for (let i = 1; i <= 3; i++) {
      for (const amount of [i, 1]) {
        const { reservationId } = await billing.call.credits.reserve({ accountId, amount, operation: 'createProject' });
        await billing.call.credits.settle({ reservationId, amount });
      }
    }
    const all = (await billing.call.ledger.list({ accountId, limit: 100 })).data;
    expect(all.map((entry) => entry.kind)).toEqual(['charge', 'charge', 'charge', 'charge', 'charge', 'charge', 'grant']);
    expect(all.map((entry) => entry.amount)).toEqual([-1, -3, -1, -2, -1, -1, startingCredits]);

    const paged = [];
    const hasMores: boolean[] = [];
    let cursor: string | undefined;
    do {
      const page = await billing.call.ledger.list({ accountId, limit: 2, cursor });
      expect(page.data.length).toBeLessThanOrEqual(2);
      paged.push(...page.data);
      hasMores.push(page.hasMore);
      expect(page.nextCursor === null).toBe(!page.hasMore);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(hasMores).toEqual([true, true, true, false]);
    expect(paged).toEqual(all);
  });

  it('an unknown account is ACCOUNT_NOT_FOUND', async () => {
    await expect(billing.call.ledger.list({ accountId: 'acct_missing', limit: 10 })).rejects.toMatchObject({
      cause: { code: 'ACCOUNT_NOT_FOUND' },
    });
  });
});
