import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBilling, type BillingHarness } from '../../testing/billing-harness';

let billing: BillingHarness;
let now = Date.now();
beforeAll(async () => {
  billing = await startBilling({ clock: () => now });
});
afterAll(() => billing?.remove());

async function newAccount() {
  return (await billing.call.accounts.create({})).accountId;
}

const hour = 60 * 60_000;

describe('api keys', () => {
  it('creates a key that verifies to its account and scopes', async () => {
    const accountId = await newAccount();
    const created = await billing.call.apiKeys.create({ accountId, name: 'ci', scopes: ['data:read'] });
    expect(created.key).toMatch(/^aty_[0-9A-Za-z]{40}$/);
    expect(created).toMatchObject({
      prefix: created.key.slice(0, 12),
      name: 'ci',
      scopes: ['data:read'],
      expiresAt: null,
      lastUsedAt: null,
    });
    expect(await billing.call.apiKeys.verify({ key: created.key })).toEqual({
      status: 'valid',
      accountId,
      keyId: created.id,
      scopes: ['data:read'],
      expiresAt: null,
    });
  });

  it('every key is different', async () => {
    const accountId = await newAccount();
    const keys = await Promise.all(
      Array.from({ length: 20 }, () => billing.call.apiKeys.create({ accountId, name: 'k', scopes: ['data:read'] })),
    );
    expect(new Set(keys.map((created) => created.key)).size).toBe(20);
  });

  it('unknown keys do not verify', async () => {
    expect(await billing.call.apiKeys.verify({ key: `aty_${'x'.repeat(40)}` })).toBeNull();
    expect(await billing.call.apiKeys.verify({ key: 'not-a-key' })).toBeNull();
  });

  it('refuses repeated scopes, an empty scope list, and an expiry in the past or over a year ahead', async () => {
    const accountId = await newAccount();
    await expect(billing.call.apiKeys.create({ accountId, name: 'x', scopes: ['data:read', 'data:read'] })).rejects.toThrow(/scope twice/);
    await expect(billing.call.apiKeys.create({ accountId, name: 'x', scopes: [] })).rejects.toThrow();
    const past = new Date(Date.now() - 1000).toISOString();
    await expect(billing.call.apiKeys.create({ accountId, name: 'x', scopes: ['data:read'], expiresAt: past })).rejects.toThrow(/future/);
    const far = new Date(Date.now() + 400 * 24 * hour).toISOString();
    await expect(billing.call.apiKeys.create({ accountId, name: 'x', scopes: ['data:read'], expiresAt: far })).rejects.toThrow(/366 days/);
  });

  it('an expired key verifies as expired, never as valid', async () => {
    const accountId = await newAccount();
    const expiresAt = new Date(Date.now() + hour).toISOString();
    const created = await billing.call.apiKeys.create({ accountId, name: 'short', scopes: ['data:read'], expiresAt });
    expect(await billing.call.apiKeys.verify({ key: created.key })).toMatchObject({ status: 'valid', expiresAt });
    const before = now;
    now = Date.parse(expiresAt);
    try {
      expect(await billing.call.apiKeys.verify({ key: created.key })).toEqual({ status: 'expired', keyId: created.id, expiresAt });
    } finally {
      now = before;
    }
  });

  it('a revoked key no longer verifies, and is gone from the list; revoking again is API_KEY_NOT_FOUND', async () => {
    const accountId = await newAccount();
    const created = await billing.call.apiKeys.create({ accountId, name: 'old', scopes: ['account:access'] });
    expect(await billing.call.apiKeys.revoke({ accountId, keyId: created.id })).toEqual({ id: created.id, deleted: true });
    expect(await billing.call.apiKeys.verify({ key: created.key })).toBeNull();
    await expect(billing.call.apiKeys.revoke({ accountId, keyId: created.id })).rejects.toMatchObject({
      cause: { code: 'API_KEY_NOT_FOUND' },
    });
    expect((await billing.call.apiKeys.list({ accountId, limit: 20 })).data).toEqual([]);
  });

  it('another account cannot revoke a key', async () => {
    const owner = await newAccount();
    const stranger = await newAccount();
    const created = await billing.call.apiKeys.create({ accountId: owner, name: 'mine', scopes: ['data:read'] });
    await expect(billing.call.apiKeys.revoke({ accountId: stranger, keyId: created.id })).rejects.toMatchObject({
      cause: { code: 'API_KEY_NOT_FOUND' },
    });
    expect(await billing.call.apiKeys.verify({ key: created.key })).not.toBeNull();
  });

  it('lists keys without their secrets, newest first, page by page', async () => {
    const accountId = await newAccount();
    const first = await billing.call.apiKeys.create({ accountId, name: 'first', scopes: ['data:read', 'account:access'] });
    const second = await billing.call.apiKeys.create({ accountId, name: 'second', scopes: ['billing:read'] });
    const page = await billing.call.apiKeys.list({ accountId, limit: 1 });
    const { key: _secret, ...secondAsListed } = second;
    expect(page).toEqual({ data: [secondAsListed], hasMore: true, nextCursor: expect.any(String) });
    const next = await billing.call.apiKeys.list({ accountId, limit: 1, cursor: page.nextCursor! });
    expect(next.data.map((key) => key.id)).toEqual([first.id]);
    expect(next.hasMore).toBe(false);
    expect(JSON.stringify([page, next])).not.toContain(first.key.slice(12));
  });

  it('records the latest use of each key, whatever order the uses arrive in', async () => {
    const accountId = await newAccount();
    const { id } = await billing.call.apiKeys.create({ accountId, name: 'used', scopes: ['data:read'] });
    const later = '2026-05-01T10:00:05.000Z';
    const earlier = '2026-05-01T10:00:01.000Z';
    expect(
      await billing.call.apiKeys.touch({
        uses: [
          { keyId: id, at: later },
          { keyId: 'key_gone', at: later },
        ],
      }),
    ).toEqual({ updated: 1 });
    expect(await billing.call.apiKeys.touch({ uses: [{ keyId: id, at: earlier }] })).toEqual({ updated: 0 });
    const [listed] = (await billing.call.apiKeys.list({ accountId, limit: 20 })).data;
    expect(listed?.lastUsedAt).toBe(later);
  });

  it('caps an account at 100 active keys (409 API_KEY_LIMIT_REACHED); expired and revoked ones do not count', async () => {
    const accountId = await newAccount();
    const expiresAt = new Date(Date.now() + hour).toISOString();
    const keys = [];
    for (let n = 0; n < 100; n++) {
      keys.push(await billing.call.apiKeys.create({ accountId, name: `k${n}`, scopes: ['data:read'], ...(n === 0 ? { expiresAt } : {}) }));
    }
    await expect(billing.call.apiKeys.create({ accountId, name: 'one too many', scopes: ['data:read'] })).rejects.toMatchObject({
      cause: { code: 'API_KEY_LIMIT_REACHED' },
    });
    await billing.call.apiKeys.revoke({ accountId, keyId: keys[1]!.id });
    await billing.call.apiKeys.create({ accountId, name: 'after a revoke', scopes: ['data:read'] });
    const before = now;
    now = Date.parse(expiresAt) + 1;
    try {
      await billing.call.apiKeys.create({ accountId, name: 'after an expiry', scopes: ['data:read'] });
    } finally {
      now = before;
    }
  });

  it('refuses a key for an unknown account', async () => {
    await expect(billing.call.apiKeys.create({ accountId: 'acct_missing', name: 'x', scopes: ['data:read'] })).rejects.toMatchObject({
      cause: { code: 'ACCOUNT_NOT_FOUND' },
    });
  });
});

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe('key storage', () => {
  it('stores only the hash: the key appears nowhere in the collection or on disk', async () => {
    const own = await startBilling();
    try {
      const { accountId } = await own.call.accounts.create({});
      const { key, id } = await own.call.apiKeys.create({ accountId, name: 'secret', scopes: ['data:read'] });
      const secret = key.slice(4);

      const stored = await own.store.collection('apiKeys').find({});
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({ _id: id, hash: createHash('sha256').update(key).digest('hex') });
      expect(JSON.stringify(stored)).not.toContain(secret);

      await own.close();
      const files = await filesUnder(own.dataDir);
      const contents = await Promise.all(files.map((file) => readFile(file, 'latin1')));
      // The key id proves the files hold the key's document, so the absence of the secret means something.
      expect(contents.join('\n')).toContain(id);
      for (const content of contents) expect(content).not.toContain(secret);
    } finally {
      await own.remove();
    }
  });
});
