import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userCodeAlphabet } from '@vrs/contracts';
import { startBilling, type BillingHarness } from '../../testing/billing-harness';

let now = Date.parse('2026-01-01T00:00:00.000Z');
let billing: BillingHarness;
beforeAll(async () => {
  billing = await startBilling({ clock: () => now });
});
afterAll(() => billing?.remove());

const hour = 3_600_000;
const sessionTtlMs = hour;

async function newAccount() {
  return (await billing.call.accounts.create({})).accountId;
}

function start(options: { scopes?: ('data:read' | 'data:write' | 'account:access')[]; expiresInSeconds?: number } = {}) {
  return billing.call.device.start({
    scopes: options.scopes ?? ['data:read', 'data:write'],
    clientName: 'vrs CLI on laptop',
    expiresInSeconds: options.expiresInSeconds ?? 600,
    intervalSeconds: 5,
    ip: '203.0.113.9',
  });
}

/** A poll's refusal: its code and details (the RFC value and, for slow_down, the new interval). */
async function refusal(deviceCode: string) {
  try {
    await billing.call.device.poll({ deviceCode, sessionTtlMs });
  } catch (error) {
    const cause = (error as { cause?: { code: string; details?: unknown } }).cause;
    return { code: cause?.code, details: cause?.details };
  }
  throw new Error('the poll was answered with a token');
}

describe('device authorization', () => {
  it('issues an XXXX-XXXX user code from the unambiguous alphabet and stores neither code', async () => {
    const started = await start();
    expect(started.userCode).toMatch(new RegExp(`^[${userCodeAlphabet}]{4}-[${userCodeAlphabet}]{4}$`));
    expect(started).toMatchObject({ expiresInSeconds: 600, intervalSeconds: 5 });
    const stored = JSON.stringify(await billing.store.collection('device_codes').find({}));
    expect(stored).not.toContain(started.deviceCode);
    expect(stored).not.toContain(started.userCode.replace('-', ''));
  });

  it('pending → approved with fewer scopes → one CLI session holding exactly those, labelled with the client', async () => {
    const accountId = await newAccount();
    const { deviceCode, userCode } = await start();
    expect(await refusal(deviceCode)).toEqual({ code: 'AUTHORIZATION_PENDING', details: { error: 'authorization_pending', interval: 5 } });

    // The page may get the code typed in lower case, without the dash or with spaces.
    const typed = userCode.toLowerCase().replace('-', ' ');
    expect(await billing.call.device.lookup({ userCode: typed })).toEqual({
      userCode,
      clientName: 'vrs CLI on laptop',
      scopes: ['data:read', 'data:write'],
      expiresAt: new Date(now + 600_000).toISOString(),
    });
    expect(await billing.call.device.approve({ accountId, userCode: typed, scopes: ['data:read'] })).toMatchObject({
      status: 'approved',
      scopes: ['data:read'],
    });

    now += 5_000;
    const token = await billing.call.device.poll({ deviceCode, sessionTtlMs });
    expect(token.token).toMatch(/^atc_/);
    expect(token.scopes).toEqual(['data:read']);
    expect(token.expiresAt).toBe(new Date(now + sessionTtlMs).toISOString());
    expect(await billing.call.sessions.verify({ token: token.token })).toMatchObject({ accountId, kind: 'cli', scopes: ['data:read'] });
    const listed = await billing.call.sessions.list({ accountId, limit: 10 });
    expect(listed.data).toEqual([
      expect.objectContaining({ id: token.sessionId, kind: 'cli', label: 'vrs CLI on laptop', ip: '203.0.113.9' }),
    ]);

    // Exchanged once: the device code is spent, and the user code cannot be decided again.
    now += 5_000;
    expect(await refusal(deviceCode)).toEqual({ code: 'INVALID_DEVICE_CODE', details: { error: 'invalid_grant' } });
    await expect(billing.call.device.lookup({ userCode })).rejects.toMatchObject({ cause: { code: 'USER_CODE_USED' } });
  });

  it('approving a scope the client did not ask for, or none, is refused', async () => {
    const accountId = await newAccount();
    const { userCode } = await start({ scopes: ['data:read'] });
    await expect(billing.call.device.approve({ accountId, userCode, scopes: ['data:read', 'account:access'] })).rejects.toMatchObject({
      cause: { code: 'SCOPE_NOT_REQUESTED', details: { notRequested: ['account:access'] } },
    });
    await expect(billing.call.device.approve({ accountId, userCode, scopes: [] })).rejects.toMatchObject({
      cause: { code: 'SCOPES_NOT_CHOSEN' },
    });
    // Still pending after both refusals.
    expect(await billing.call.device.lookup({ userCode })).toMatchObject({ scopes: ['data:read'] });
  });

  it('exchanges an approved code for exactly one session under concurrent polls', async () => {
    const accountId = await newAccount();
    const { deviceCode, userCode } = await start();
    await billing.call.device.approve({ accountId, userCode, scopes: ['data:read', 'data:write'] });
    const polls = await Promise.allSettled(Array.from({ length: 8 }, () => billing.call.device.poll({ deviceCode, sessionTtlMs })));
    const tokens = polls.filter((poll) => poll.status === 'fulfilled');
    expect(tokens).toHaveLength(1);
    const codes = polls.flatMap((poll) => (poll.status === 'rejected' ? [(poll.reason as { cause: { code: string } }).cause.code] : []));
    expect(codes).toHaveLength(7);
    for (const code of codes) expect(['SLOW_DOWN', 'INVALID_DEVICE_CODE']).toContain(code);
    expect((await billing.call.sessions.list({ accountId, limit: 10 })).data).toHaveLength(1);
  });

  it('slow_down: a poll within the interval raises it by 5 s for every later poll', async () => {
    const { deviceCode } = await start();
    expect((await refusal(deviceCode)).code).toBe('AUTHORIZATION_PENDING');
    now += 4_999;
    expect(await refusal(deviceCode)).toEqual({ code: 'SLOW_DOWN', details: { error: 'slow_down', interval: 10 } });
    // The old interval is no longer enough…
    now += 5_000;
    expect(await refusal(deviceCode)).toEqual({ code: 'SLOW_DOWN', details: { error: 'slow_down', interval: 15 } });
    // …the current one is.
    now += 15_000;
    expect(await refusal(deviceCode)).toEqual({ code: 'AUTHORIZATION_PENDING', details: { error: 'authorization_pending', interval: 15 } });
  });

  it('denied → access_denied on every later poll; the user code is spent', async () => {
    const accountId = await newAccount();
    const { deviceCode, userCode } = await start();
    expect(await billing.call.device.deny({ accountId, userCode })).toMatchObject({ status: 'denied' });
    expect(await refusal(deviceCode)).toEqual({ code: 'ACCESS_DENIED', details: { error: 'access_denied' } });
    now += 5_000;
    expect((await refusal(deviceCode)).code).toBe('ACCESS_DENIED');
    await expect(billing.call.device.approve({ accountId, userCode, scopes: ['data:read'] })).rejects.toMatchObject({
      cause: { code: 'USER_CODE_USED' },
    });
  });

  it('expiry: at expires_in the code is expired_token for the client and USER_CODE_EXPIRED for the page', async () => {
    const accountId = await newAccount();
    const { deviceCode, userCode } = await start({ expiresInSeconds: 60 });
    now += 59_999;
    expect(await billing.call.device.lookup({ userCode })).toMatchObject({ userCode });
    now += 1;
    await expect(billing.call.device.lookup({ userCode })).rejects.toMatchObject({ cause: { code: 'USER_CODE_EXPIRED' } });
    await expect(billing.call.device.approve({ accountId, userCode, scopes: ['data:read'] })).rejects.toMatchObject({
      cause: { code: 'USER_CODE_EXPIRED' },
    });
    expect(await refusal(deviceCode)).toEqual({ code: 'EXPIRED_TOKEN', details: { error: 'expired_token' } });

    // An approved code not exchanged in time expires too.
    const late = await start({ expiresInSeconds: 60 });
    await billing.call.device.approve({ accountId, userCode: late.userCode, scopes: ['data:read'] });
    now += 60_000;
    expect((await refusal(late.deviceCode)).code).toBe('EXPIRED_TOKEN');

    // A day after expiry the records are purged as new codes are made: the code is then unknown.
    now += 86_400_000;
    await start();
    expect((await refusal(deviceCode)).code).toBe('INVALID_DEVICE_CODE');
  });

  it('unknown and malformed codes', async () => {
    expect((await refusal('not-a-device-code')).code).toBe('INVALID_DEVICE_CODE');
    await expect(billing.call.device.lookup({ userCode: 'BCDF-GHJK' })).rejects.toMatchObject({ cause: { code: 'USER_CODE_INVALID' } });
    // Vowels and digits are not in the alphabet: refused without a lookup.
    await expect(billing.call.device.lookup({ userCode: 'AEIO-1234' })).rejects.toMatchObject({ cause: { code: 'USER_CODE_INVALID' } });
  });

  it('a code approved by an account deleted before the exchange yields no session', async () => {
    const accountId = await newAccount();
    const { deviceCode, userCode } = await start();
    await billing.call.device.approve({ accountId, userCode, scopes: ['data:read'] });
    await billing.store.collection('accounts').updateOne({ _id: accountId }, { $set: { deletedAt: new Date(now).toISOString() } });
    expect((await refusal(deviceCode)).code).toBe('ACCESS_DENIED');
    expect(await billing.store.collection('sessions').countDocuments({ accountId })).toBe(0);
  });
});
