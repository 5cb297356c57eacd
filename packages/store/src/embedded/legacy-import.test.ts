import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, expect, it } from 'vitest';
import { makeTempDir } from '@vrs/testing/temp-dir';
import { DuplicateKeyError } from '../errors';
import type { StoreDocument } from '../port';
import { openEmbeddedStore } from './embedded-store';
import { LEGACY_FOLDER } from './legacy-import';

interface Account extends StoreDocument {
  balance: number;
  demoUser?: string;
}

let dir: string;
beforeEach(() => {
  dir = makeTempDir('legacy-import-');
});

const lines = (...records: unknown[]) => records.map((record) => `${JSON.stringify(record)}\n`).join('');

it('imports the snapshot and log of the file-based adapter once, with their unique indexes, and keeps the files aside', async () => {
  const demoIndex = {
    name: 'demoUser_unique',
    key: { demoUser: 1 },
    unique: true,
    partialFilterExpression: { demoUser: { $exists: true } },
  };
  await writeFile(
    join(dir, 'accounts.snapshot'),
    lines({ g: 2 }, { x: demoIndex }, { p: { _id: 'a', balance: 10, demoUser: 'ada' } }, { p: { _id: 'b', balance: 5 } }),
  );
  // The log of the same generation: an update, a delete, an insert, then a line torn by a crash.
  await writeFile(
    join(dir, 'accounts.log'),
    `${lines({ g: 2 }, { p: { _id: 'a', balance: 7, demoUser: 'ada' } }, { d: 'b' }, { p: { _id: 'c', balance: 1 } })}{"p":{"_id":"torn`,
  );
  // A log older than its snapshot (a crash during compaction) is ignored, as that adapter did.
  await writeFile(join(dir, 'ledger.snapshot'), lines({ g: 3 }, { p: { _id: 'l1', balance: 0 } }));
  await writeFile(join(dir, 'ledger.log'), lines({ g: 2 }, { p: { _id: 'stale', balance: 0 } }));

  const store = await openEmbeddedStore(dir);
  const accounts = store.collection<Account>('accounts');
  expect(await accounts.find({}, { sort: { _id: 1 } })).toEqual([
    { _id: 'a', balance: 7, demoUser: 'ada' },
    { _id: 'c', balance: 1 },
  ]);
  expect((await store.collection('ledger').find({})).map((doc) => doc._id)).toEqual(['l1']);
  await expect(accounts.insertOne({ _id: 'd', balance: 0, demoUser: 'ada' })).rejects.toBeInstanceOf(DuplicateKeyError);
  await accounts.insertOne({ _id: 'e', balance: 2 });
  await store.close();
  expect((await readdir(join(dir, LEGACY_FOLDER))).sort()).toEqual(['accounts.log', 'accounts.snapshot', 'ledger.log', 'ledger.snapshot']);

  const reopened = await openEmbeddedStore(dir);
  expect(await reopened.collection('accounts').countDocuments()).toBe(3);
  await reopened.close();
});

it('refuses to open over a corrupt legacy record, and releases the directory', async () => {
  await writeFile(join(dir, 'notes.log'), 'garbage\n');
  await expect(openEmbeddedStore(dir)).rejects.toThrow(/unreadable record/);
  expect(await readdir(dir)).not.toContain('LOCK');
});
