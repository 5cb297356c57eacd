import { MongoClient } from 'mongodb';
import type { Collection, Store, StoreDocument } from '../port';
import { MongoCollection } from './mongo-collection';

/**
 * The MongoDB adapter: one database per service. It does not connect here: the driver connects
 * on first use, so a service can start before its database and report it through ping().
 */
export function openMongoStore(url: string, database: string): Store {
  // ignoreUndefined: drop undefined fields as the embedded adapter does, instead of storing null.
  const client = new MongoClient(url, { ignoreUndefined: true });
  const db = client.db(database);
  return {
    kind: 'mongo',
    collection<T extends StoreDocument>(name: string): Collection<T> {
      return new MongoCollection<T>(db.collection(name));
    },
    async ping() {
      await db.command({ ping: 1 });
    },
    close: () => client.close(),
  };
}
