import { MongoClient } from 'mongodb';
import type { Collection, Store, StoreDocument, StoreScope } from '../port';
import { MongoCollection } from './mongo-collection';

/**
 * The MongoDB adapter: one database per service. It does not connect here: the driver connects
 * on first use, so a service can start before its database and report it through ping().
 */
export function openMongoStore(url: string, database: string): Store {
  // ignoreUndefined: drop undefined fields as the embedded adapter does, instead of storing null.
  return mongoStore(new MongoClient(url, { ignoreUndefined: true }), database);
}

/** The store over a client (a replica set or sharded cluster, for transactions). */
export function mongoStore(client: MongoClient, database: string): Store {
  const db = client.db(database);
  return {
    kind: 'mongo',
    collection<T extends StoreDocument>(name: string): Collection<T> {
      return new MongoCollection<T>(db.collection(name));
    },
    /**
     * A driver session's transaction: the driver commits when `work` resolves, aborts when it throws,
     * and runs `work` again on a transient error or an unknown commit result.
     */
    withTransaction<R>(work: (tx: StoreScope) => Promise<R>): Promise<R> {
      return client.withSession((session) =>
        session.withTransaction(
          () => work({ collection: <T extends StoreDocument>(name: string) => new MongoCollection<T>(db.collection(name), session) }),
          { readConcern: { level: 'snapshot' }, writeConcern: { w: 'majority' } },
        ),
      );
    },
    writeStamp: () => undefined,
    async ping() {
      await db.command({ ping: 1 });
    },
    close: () => client.close(),
  };
}
