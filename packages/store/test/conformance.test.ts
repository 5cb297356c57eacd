import { tmpdir } from 'node:os';
import { MongoClient } from 'mongodb';
import { afterAll } from 'vitest';
import { makeTempDir } from '@vrs/testing/temp-dir';
import { describeStoreConformance } from './conformance';
import { openStore } from '../src/open-store';

const mongoDatabases: string[] = [];

afterAll(async () => {
  if (mongodbUrl && mongoDatabases.length) {
    const client = new MongoClient(mongodbUrl);
    try {
      await Promise.all(mongoDatabases.map((name) => client.db(name).dropDatabase()));
    } finally {
      await client.close();
    }
  }
});

describeStoreConformance('embedded store', () => openStore({ service: 'conformance', dataDir: makeTempDir('store-conformance-') }));

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
