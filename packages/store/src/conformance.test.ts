import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll } from 'vitest';
import { describeStoreConformance } from './conformance';
import { openStore } from './open-store';

const tempDirs: string[] = [];
const mongoDatabases: string[] = [];

afterAll(async () => {
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  if (mongodbUrl && mongoDatabases.length) {
    const client = new MongoClient(mongodbUrl);
    try {
      await Promise.all(mongoDatabases.map((name) => client.db(name).dropDatabase()));
    } finally {
      await client.close();
    }
  }
});

describeStoreConformance('embedded store', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'store-conformance-'));
  tempDirs.push(dataDir);
  return openStore({ service: 'conformance', dataDir });
});

const mongodbUrl = process.env.MONGODB_URL;
const mongoSkipReason = mongodbUrl ? undefined : 'MONGODB_URL not set: mongo adapter conformance skipped';
if (mongoSkipReason) console.warn(mongoSkipReason);

describeStoreConformance(
  'mongo store',
  async () => {
    const service = `store_conformance_${process.pid}_${mongoDatabases.length}`;
    mongoDatabases.push(service);
    return openStore({ service, mongodbUrl, dataDir: tmpdir() });
  },
  mongoSkipReason,
);
