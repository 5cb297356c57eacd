import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../identity/passwords';
import { startBilling, type BillingHarness } from '../../testing/billing-harness';

let now = Date.parse('2026-02-01T00:00:00.000Z');
let billing: BillingHarness;
beforeAll(async () => {
  billing = await startBilling({ clock: () => now });
});
afterAll(() => billing?.remove());

let counter = 0;
const newEmail = () => `Person.${++counter}@Example.test`;
const password = 'a good long password';

async function verifiedAccount() {
  const email = newEmail();
  const { accountId, verificationToken } = await billing.call.identity.signUp({ email, password });
  await billing.call.identity.verifyEmail({ token: verificationToken! });
  return { accountId, email };
}

describe('sign-up and verification', () => {
  it('opens an unverified account with a lower-cased address and the starting grant; the link verifies it once', async () => {
    const email = newEmail();
    const signedUp = await billing.call.identity.signUp({ email, password, name: 'Person' });
    expect(signedUp).toMatchObject({ created: true, verificationToken: expect.any(String) });
    expect(await billing.call.accounts.get({ accountId: signedUp.accountId })).toMatchObject({
      email: email.toLowerCase(),
      name: 'Person',
      verified: false,
    });
    expect((await billing.call.status.get({ accountId: signedUp.accountId })).credits.balance).toBeGreaterThan(0);

    expect(await billing.call.identity.verifyEmail({ token: signedUp.verificationToken! })).toEqual({ accountId: signedUp.accountId });
    expect((await billing.call.accounts.get({ accountId: signedUp.accountId })).verified).toBe(true);
    await expect(billing.call.identity.verifyEmail({ token: signedUp.verificationToken! })).rejects.toMatchObject({
      cause: { code: 'LINK_INVALID' },
    });
  });

  it('stores link tokens hashed, and a link expires', async () => {
    const signedUp = await billing.call.identity.signUp({ email: newEmail(), password });
    const stored = await billing.store.collection('emailLinks').find({ accountId: signedUp.accountId });
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(signedUp.verificationToken);
    now += 24 * 3_600_000;
    await expect(billing.call.identity.verifyEmail({ token: signedUp.verificationToken! })).rejects.toMatchObject({
      cause: { code: 'LINK_EXPIRED', status: 410 },
    });
  });

  it('a taken address opens nothing: unverified gets a new link (the old one stops working), verified gets none', async () => {
    const email = newEmail();
    const first = await billing.call.identity.signUp({ email, password });
    const again = await billing.call.identity.signUp({ email: email.toUpperCase(), password: 'something else entirely' });
    expect(again).toMatchObject({ accountId: first.accountId, created: false, verificationToken: expect.any(String) });
    await expect(billing.call.identity.verifyEmail({ token: first.verificationToken! })).rejects.toMatchObject({
      cause: { code: 'LINK_INVALID' },
    });
    await billing.call.identity.verifyEmail({ token: again.verificationToken! });
    expect(await billing.call.identity.signUp({ email, password })).toEqual({
      accountId: first.accountId,
      created: false,
      verificationToken: null,
    });
    expect(await billing.store.collection('accounts').countDocuments({ email: email.toLowerCase() })).toBe(1);
  });

  it('simultaneous sign-ups of one address open one account', async () => {
    const email = newEmail();
    const results = await Promise.all(Array.from({ length: 5 }, () => billing.call.identity.signUp({ email, password })));
    expect(new Set(results.map((result) => result.accountId)).size).toBe(1);
    expect(results.filter((result) => result.created)).toHaveLength(1);
  });
});

describe('sign-in', () => {
  it('accepts the right password (any letter case of the address), refuses the wrong one and unknown addresses alike', async () => {
    const { accountId, email } = await verifiedAccount();
    expect(await billing.call.identity.signIn({ email: email.toUpperCase(), password })).toEqual({
      accountId,
      verified: true,
      verificationToken: null,
    });
    for (const attempt of [
      { email, password: 'a wrong long password' },
      { email: 'nobody@example.test', password },
    ]) {
      await expect(billing.call.identity.signIn(attempt)).rejects.toMatchObject({ cause: { code: 'INVALID_CREDENTIALS', status: 401 } });
    }
  });

  it('an unverified account with the right password comes back unverified with a new link', async () => {
    const email = newEmail();
    await billing.call.identity.signUp({ email, password });
    const result = await billing.call.identity.signIn({ email, password });
    expect(result).toMatchObject({ verified: false, verificationToken: expect.any(String) });
  });

  it('a deleted account cannot sign in', async () => {
    const { accountId, email } = await verifiedAccount();
    await billing.store.collection('accounts').updateOne({ _id: accountId }, { $set: { deletedAt: new Date(now).toISOString() } });
    await expect(billing.call.identity.signIn({ email, password })).rejects.toMatchObject({ cause: { code: 'INVALID_CREDENTIALS' } });
  });

  it("a deleted account's address signs in no more, its links do nothing, and it can sign up again as a brand-new account", async () => {
    const email = newEmail();
    const first = await billing.call.identity.signUp({ email, password, name: 'First' });
    const reset = await billing.call.identity.requestPasswordReset({ email });
    // The account as the deletion's transaction leaves it, before billing's handler removes its links.
    await billing.store
      .collection('accounts')
      .updateOne(
        { _id: first.accountId },
        { $set: { deletedAt: new Date(now).toISOString(), name: null }, $unset: { email: '', passwordHash: '', emailVerifiedAt: '' } },
      );

    await expect(billing.call.identity.signIn({ email, password })).rejects.toMatchObject({ cause: { code: 'INVALID_CREDENTIALS' } });
    expect(await billing.call.identity.requestPasswordReset({ email })).toBeNull();
    // Links sent before the deletion, still stored in that moment, change nothing.
    await expect(billing.call.identity.verifyEmail({ token: first.verificationToken! })).rejects.toMatchObject({
      cause: { code: 'LINK_INVALID' },
    });
    await expect(billing.call.identity.resetPassword({ token: reset!.token, password: 'a new long password' })).rejects.toMatchObject({
      cause: { code: 'LINK_INVALID' },
    });
    const tombstone = await billing.store.collection('accounts').findOne({ _id: first.accountId });
    expect(tombstone).toMatchObject({ name: null, deletedAt: expect.any(String) });
    for (const field of ['email', 'emailVerifiedAt', 'passwordHash']) expect(tombstone, field).not.toHaveProperty(field);

    const again = await billing.call.identity.signUp({ email, password, name: 'Second' });
    expect(again).toMatchObject({ created: true, verificationToken: expect.any(String) });
    expect(again.accountId).not.toBe(first.accountId);
    await billing.call.identity.verifyEmail({ token: again.verificationToken! });
    expect(await billing.call.identity.signIn({ email, password })).toEqual({
      accountId: again.accountId,
      verified: true,
      verificationToken: null,
    });
    expect(await billing.call.accounts.get({ accountId: again.accountId })).toMatchObject({ email: email.toLowerCase(), name: 'Second' });
  });

  it('rehashes a password stored at a lower cost on the next sign-in', async () => {
    const { accountId, email } = await verifiedAccount();
    const accounts = billing.store.collection<{ _id: string; passwordHash: string }>('accounts');
    const before = (await accounts.findOne({ _id: accountId }))!.passwordHash;
    // The harness hashes at 2^12; store one at 2^11 as if the cost had since been raised.
    await accounts.updateOne({ _id: accountId }, { $set: { passwordHash: await hashPassword(password, { logN: 11, r: 8, p: 1 }) } });
    await billing.call.identity.signIn({ email, password });
    const after = (await accounts.findOne({ _id: accountId }))!.passwordHash;
    expect(after).toMatch(/^scrypt\$12\$/);
    expect(after).not.toBe(before);
  });
});

describe('password reset', () => {
  it('sets the new password once per link and ends every session', async () => {
    const { accountId, email } = await verifiedAccount();
    const sessions = await Promise.all(
      [1, 2].map(() => billing.call.sessions.create({ accountId, kind: 'web', scopes: null, ttlMs: 3_600_000 })),
    );
    const issued = await billing.call.identity.requestPasswordReset({ email });
    expect(issued?.accountId).toBe(accountId);
    expect(await billing.call.identity.requestPasswordReset({ email: 'nobody@example.test' })).toBeNull();

    await billing.call.identity.resetPassword({ token: issued!.token, password: 'the new long password' });
    for (const session of sessions) expect(await billing.call.sessions.verify({ token: session.token })).toBeNull();
    await expect(billing.call.identity.signIn({ email, password })).rejects.toMatchObject({ cause: { code: 'INVALID_CREDENTIALS' } });
    expect((await billing.call.identity.signIn({ email, password: 'the new long password' })).accountId).toBe(accountId);
    await expect(billing.call.identity.resetPassword({ token: issued!.token, password: 'a third long password' })).rejects.toMatchObject({
      cause: { code: 'LINK_INVALID' },
    });
  });

  it('API keys survive a reset unless it asks to revoke them', async () => {
    const { accountId, email } = await verifiedAccount();
    const key = await billing.call.apiKeys.create({ accountId, name: 'ci', scopes: ['data:read'] });
    const first = await billing.call.identity.requestPasswordReset({ email });
    await billing.call.identity.resetPassword({ token: first!.token, password: 'the new long password' });
    expect(await billing.call.apiKeys.verify({ key: key.key })).toMatchObject({ status: 'valid', keyId: key.id });
    const second = await billing.call.identity.requestPasswordReset({ email });
    await billing.call.identity.resetPassword({ token: second!.token, password: 'a third long password', revokeApiKeys: true });
    expect(await billing.call.apiKeys.verify({ key: key.key })).toBeNull();
  });

  it('a reset link expires after its time to live', async () => {
    const { email } = await verifiedAccount();
    const issued = await billing.call.identity.requestPasswordReset({ email });
    now += 3_600_000;
    await expect(billing.call.identity.resetPassword({ token: issued!.token, password: 'the new long password' })).rejects.toMatchObject({
      cause: { code: 'LINK_EXPIRED' },
    });
  });
});

describe('the account', () => {
  it('renames, and clears the name', async () => {
    const { accountId } = await verifiedAccount();
    expect(await billing.call.accounts.update({ accountId, name: 'New name' })).toMatchObject({ id: accountId, name: 'New name' });
    expect(await billing.call.accounts.update({ accountId, name: null })).toMatchObject({ name: null });
    await expect(billing.call.accounts.update({ accountId: 'acct_missing', name: 'x' })).rejects.toMatchObject({
      cause: { code: 'ACCOUNT_NOT_FOUND' },
    });
  });
});
