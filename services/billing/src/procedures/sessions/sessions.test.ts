import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBilling, type BillingHarness } from '../../testing/billing-harness';

let now = Date.parse('2026-01-01T00:00:00.000Z');
let billing: BillingHarness;
beforeAll(async () => {
  billing = await startBilling({ clock: () => now });
});
afterAll(() => billing?.remove());

const hour = 3_600_000;

async function newAccount() {
  return (await billing.call.accounts.create({})).accountId;
}

async function webSession(accountId: string, ttlMs = 24 * hour) {
  return billing.call.sessions.create({ accountId, kind: 'web', scopes: null, ttlMs, userAgent: 'test', ip: '127.0.0.1' });
}

describe('sessions', () => {
  it('a web session verifies as the owner with its CSRF token; a CLI session with its scopes', async () => {
    const accountId = await newAccount();
    const web = await webSession(accountId);
    expect(web.token).toMatch(/^ats_[\w-]{43}$/);
    expect(web.csrfToken).toEqual(expect.any(String));
    expect(await billing.call.sessions.verify({ token: web.token })).toEqual({
      sessionId: web.sessionId,
      accountId,
      kind: 'web',
      scopes: null,
      csrfToken: web.csrfToken,
      expiresAt: web.expiresAt,
      rotate: false,
    });

    const cli = await billing.call.sessions.create({ accountId, kind: 'cli', scopes: ['data:read'], ttlMs: hour });
    expect(cli.token).toMatch(/^atc_/);
    expect(cli.csrfToken).toBeNull();
    expect(await billing.call.sessions.verify({ token: cli.token })).toMatchObject({ kind: 'cli', scopes: ['data:read'], csrfToken: null });
  });

  it('stores only the token hash', async () => {
    const accountId = await newAccount();
    const { token, sessionId } = await webSession(accountId);
    const [stored] = await billing.store.collection('sessions').find({ _id: sessionId });
    expect(JSON.stringify(stored)).not.toContain(token.slice(4));
  });

  it('unknown and malformed tokens do not verify', async () => {
    expect(await billing.call.sessions.verify({ token: `ats_${'x'.repeat(43)}` })).toBeNull();
    expect(await billing.call.sessions.verify({ token: 'nothing' })).toBeNull();
  });

  it('a session expires at its time to live', async () => {
    const accountId = await newAccount();
    const { token } = await webSession(accountId, hour);
    now += hour - 1;
    expect(await billing.call.sessions.verify({ token })).not.toBeNull();
    now += 1;
    expect(await billing.call.sessions.verify({ token })).toBeNull();
  });

  it('rotation: due after the given age, a new token, the old one valid only through its grace', async () => {
    const accountId = await newAccount();
    const { token, sessionId, csrfToken } = await webSession(accountId);
    expect(await billing.call.sessions.verify({ token, rotateAfterMs: 10 * 60_000 })).toMatchObject({ rotate: false });
    now += 10 * 60_000;
    expect(await billing.call.sessions.verify({ token, rotateAfterMs: 10 * 60_000 })).toMatchObject({ rotate: true });

    const rotated = await billing.call.sessions.rotate({ sessionId, token, graceMs: 30_000 });
    expect(rotated?.token).toMatch(/^ats_/);
    expect(rotated?.token).not.toBe(token);
    // A parallel request rotating the same old token loses and keeps its token.
    expect(await billing.call.sessions.rotate({ sessionId, token, graceMs: 30_000 })).toBeNull();

    const fresh = await billing.call.sessions.verify({ token: rotated!.token, rotateAfterMs: 10 * 60_000 });
    expect(fresh).toMatchObject({ sessionId, rotate: false, csrfToken });
    // The old token: still accepted within the grace (never asked to rotate again), refused after it.
    expect(await billing.call.sessions.verify({ token, rotateAfterMs: 0 })).toMatchObject({ sessionId, rotate: false });
    now += 30_000;
    expect(await billing.call.sessions.verify({ token })).toBeNull();
    expect(await billing.call.sessions.verify({ token: rotated!.token })).not.toBeNull();
  });

  it('revoke ends one session; again, or by another account, is SESSION_NOT_FOUND', async () => {
    const accountId = await newAccount();
    const stranger = await newAccount();
    const { token, sessionId } = await webSession(accountId);
    await expect(billing.call.sessions.revoke({ accountId: stranger, sessionId })).rejects.toMatchObject({
      cause: { code: 'SESSION_NOT_FOUND' },
    });
    expect(await billing.call.sessions.verify({ token })).not.toBeNull();
    expect(await billing.call.sessions.revoke({ accountId, sessionId })).toEqual({ revoked: true });
    expect(await billing.call.sessions.verify({ token })).toBeNull();
    await expect(billing.call.sessions.revoke({ accountId, sessionId })).rejects.toMatchObject({ cause: { code: 'SESSION_NOT_FOUND' } });
  });

  it('revokeAll ends every session but the one kept; list shows live sessions newest first', async () => {
    const accountId = await newAccount();
    const sessions = [];
    for (let n = 0; n < 3; n++) {
      sessions.push(await webSession(accountId));
      now += 1;
    }
    const cli = await billing.call.sessions.create({ accountId, kind: 'cli', scopes: ['data:read'], ttlMs: hour, label: 'laptop' });
    const listed = await billing.call.sessions.list({ accountId, limit: 2 });
    expect(listed.data.map((session) => session.id)).toEqual([cli.sessionId, sessions[2]!.sessionId]);
    expect(listed.data[0]).toMatchObject({ kind: 'cli', scopes: ['data:read'], label: 'laptop' });
    expect(listed.hasMore).toBe(true);
    const rest = await billing.call.sessions.list({ accountId, limit: 10, cursor: listed.nextCursor! });
    expect(rest.data.map((session) => session.id)).toEqual([sessions[1]!.sessionId, sessions[0]!.sessionId]);

    expect(await billing.call.sessions.revokeAll({ accountId, exceptSessionId: sessions[0]!.sessionId })).toEqual({ revoked: 3 });
    expect(await billing.call.sessions.verify({ token: sessions[0]!.token })).not.toBeNull();
    for (const ended of [sessions[1]!, sessions[2]!, cli]) expect(await billing.call.sessions.verify({ token: ended.token })).toBeNull();
    expect((await billing.call.sessions.list({ accountId, limit: 10 })).data.map((session) => session.id)).toEqual([
      sessions[0]!.sessionId,
    ]);
  });

  it('a session of a deleted account is refused, and none can be opened for it', async () => {
    const accountId = await newAccount();
    const { token } = await webSession(accountId);
    await billing.store.collection('accounts').updateOne({ _id: accountId }, { $set: { deletedAt: new Date(now).toISOString() } });
    expect(await billing.call.sessions.verify({ token })).toBeNull();
    await expect(webSession(accountId)).rejects.toMatchObject({ cause: { code: 'ACCOUNT_NOT_FOUND' } });
  });

  it('a web session cannot carry scopes, a CLI session must', async () => {
    const accountId = await newAccount();
    await expect(billing.call.sessions.create({ accountId, kind: 'web', scopes: ['data:read'], ttlMs: hour })).rejects.toMatchObject({
      cause: { code: 'VALIDATION_FAILED' },
    });
    await expect(billing.call.sessions.create({ accountId, kind: 'cli', scopes: null, ttlMs: hour })).rejects.toMatchObject({
      cause: { code: 'VALIDATION_FAILED' },
    });
  });
});
