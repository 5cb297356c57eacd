import { MongoClient } from 'mongodb';
import { makeTempDir } from '@vrs/testing/temp-dir';
import { describeSearchConformance } from './conformance';
import { openEmbeddedSearch, openEmbeddedSearchInThread } from '../src/embedded/embedded-search';
import { openMongoSearch } from '../src/mongo/mongo-search';

describeSearchConformance('embedded (in thread)', async () => {
  const dir = makeTempDir('search-conformance-');
  return { index: openEmbeddedSearchInThread(dir, { batchSize: 100 }), reopen: async () => openEmbeddedSearchInThread(dir) };
});

describeSearchConformance('embedded (worker thread)', async () => {
  const dir = makeTempDir('search-conformance-');
  return { index: openEmbeddedSearch(dir, { batchSize: 100 }), reopen: async () => openEmbeddedSearch(dir) };
});

/** Why the Mongo Search suite cannot run here: no MONGODB_URL, or a deployment without mongot. */
async function mongoSearchUnavailable(url: string | undefined): Promise<string | undefined> {
  if (!url) return 'MONGODB_URL not set: Mongo Search conformance skipped';
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 5_000 });
  try {
    await client
      .db('search_probe')
      .collection('probe')
      .aggregate([{ $listSearchIndexes: {} }])
      .toArray();
    return undefined;
  } catch (error) {
    return `MONGODB_URL has no Mongo Search (Atlas, or Community 8.2+ with mongot): ${(error as Error).message.slice(0, 120)}`;
  } finally {
    await client.close();
  }
}

const mongodbUrl = process.env.MONGODB_URL;
const mongoSkipReason = await mongoSearchUnavailable(mongodbUrl);
if (mongoSkipReason) console.warn(mongoSkipReason);
let mongoDatabases = 0;

describeSearchConformance(
  'mongo search',
  async () => {
    const database = `search_conformance_${process.pid}_${++mongoDatabases}`;
    return {
      index: openMongoSearch(mongodbUrl!, { database, batchSize: 100 }),
      reopen: async () => openMongoSearch(mongodbUrl!, { database }),
      async cleanup() {
        const client = new MongoClient(mongodbUrl!);
        await client.db(database).dropDatabase();
        await client.close();
      },
    };
  },
  // Mongo Search builds the index and replicates writes asynchronously: poll until the answer is there.
  async (read, ready) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const value = await read().catch((error) => (Date.now() < deadline ? undefined : Promise.reject(error)));
      if (value !== undefined && ready(value)) return value;
      if (Date.now() >= deadline) return value as never;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  },
  mongoSkipReason,
);
