import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBilling, type BillingHarness } from '../../testing/billing-harness';

let billing: BillingHarness;
beforeAll(async () => {
  billing = await startBilling();
});
afterAll(() => billing?.remove());

async function newAccount() {
  return (await billing.call.accounts.create({})).accountId;
}

describe('api keys', () => {
  it('creates a key that verifies to its account and scopes', async () => {
    const accountId = await newAccount();
    const created = await billing.call.apiKeys.create({ accountId, name: 'ci', scopes: ['data:read'] });
    expect(created.key).toMatch(/^aty_[0-9A-Za-z]{40}$/);
    expect(created.prefix).toBe(created.key.slice(0, 12));
    expect(created.scopes).toEqual(['data:read']);
    expect(await billing.call.apiKeys.verify({ key: created.key })).toEqual({ accountId, keyId: created.id, scopes: ['data:read'] });
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

  it('a revoked key no longer verifies; revoking again is harmless', async () => {
    const accountId = await newAccount();
    const created = await billing.call.apiKeys.create({ accountId, name: 'old', scopes: ['account:access'] });
    expect(await billing.call.apiKeys.revoke({ accountId, keyId: created.id })).toEqual({ revoked: true });
    expect(await billing.call.apiKeys.verify({ key: created.key })).toBeNull();
    expect(await billing.call.apiKeys.revoke({ accountId, keyId: created.id })).toEqual({ revoked: true });
    const [listed] = await billing.call.apiKeys.list({ accountId });
    expect(listed).toMatchObject({ id: created.id, revokedAt: expect.any(String) });
  });

  it('another account cannot revoke a key', async () => {
    const owner = await newAccount();
    const stranger = await newAccount();
    const created = await billing.call.apiKeys.create({ accountId: owner, name: 'mine', scopes: ['data:read'] });
    await expect(billing.call.apiKeys.revoke({ accountId: stranger, keyId: created.id })).rejects.toMatchObject({
      cause: { code: 'NOT_FOUND' },
    });
    expect(await billing.call.apiKeys.verify({ key: created.key })).not.toBeNull();
  });

  it('lists keys without their secrets', async () => {
    const accountId = await newAccount();
    const created = await billing.call.apiKeys.create({ accountId, name: 'listed', scopes: ['data:read', 'account:access'] });
    const listed = await billing.call.apiKeys.list({ accountId });
    expect(listed).toEqual([
      {
        id: created.id,
        name: 'listed',
        prefix: created.prefix,
        scopes: ['data:read', 'account:access'],
        createdAt: expect.any(String),
        revokedAt: null,
      },
    ]);
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
