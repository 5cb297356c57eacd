import { tmpdir } from 'node:os';
import {
  MongoBulkWriteError,
  MongoServerError,
  type BulkWriteResult,
  type Collection as DriverCollection,
  type Document,
  type MongoClient,
} from 'mongodb';
import { describe, expect, it, vi } from 'vitest';
import { DuplicateKeyError } from '../errors';
import { openStore } from '../open-store';
import type { StoreDocument } from '../port';
import { MongoCollection } from './mongo-collection';
import { mongoStore } from './mongo-store';

/** What the adapter adds on its own, checked without a server (the conformance suite needs one). */
describe('mongo adapter without a server', () => {
  const duplicate = () => new MongoServerError({ message: 'E11000 duplicate key error', code: 11000, keyPattern: { email: 1 } });

  it('turns duplicate-key errors into DuplicateKeyError, single and bulk', async () => {
    // Shaped as the driver builds it: each write error wraps the server's raw error in `err`.
    const bulk = new MongoBulkWriteError(
      {
        message: 'E11000 duplicate key error',
        code: 11000,
        writeErrors: [{ err: { index: 1, code: 11000, errmsg: 'E11000', keyPattern: { _id: 1 } } }],
      } as never,
      {} as BulkWriteResult,
    );
    const driver = {
      insertOne: vi.fn().mockRejectedValue(duplicate()),
      insertMany: vi.fn().mockRejectedValue(bulk),
      updateOne: vi.fn().mockRejectedValue(new MongoServerError({ message: 'other', code: 2 })),
    };
    const collection = new MongoCollection<StoreDocument>(driver as unknown as DriverCollection<Document>);

    const single = await collection.insertOne({ _id: 'a' }).catch((error: unknown) => error);
    expect(single).toBeInstanceOf(DuplicateKeyError);
    expect(single).toMatchObject({ code: 11000, keyPattern: { email: 1 } });
    await expect(collection.insertMany([{ _id: 'a' }, { _id: 'a' }])).rejects.toMatchObject({
      name: 'DuplicateKeyError',
      keyPattern: { _id: 1 },
    });
    await expect(collection.updateOne({}, { $set: { a: 1 } })).rejects.toBeInstanceOf(MongoServerError);
    await expect(collection.insertOne({} as StoreDocument)).rejects.toThrow(/string _id/);
  });

  it('gives upserts a string _id unless the filter or the update chose one', async () => {
    const driver = {
      updateOne: vi.fn().mockResolvedValue({ matchedCount: 0, modifiedCount: 0, upsertedId: 'generated' }),
      findOneAndUpdate: vi.fn().mockResolvedValue(null),
    };
    const collection = new MongoCollection<StoreDocument>(driver as unknown as DriverCollection<Document>);

    expect(await collection.updateOne({ day: 'd' }, { $inc: { n: 1 }, $setOnInsert: { at: 't' } }, { upsert: true })).toEqual({
      matchedCount: 0,
      modifiedCount: 0,
      upsertedId: 'generated',
    });
    const [, update, options] = driver.updateOne.mock.calls[0] ?? [];
    expect(update).toEqual({ $inc: { n: 1 }, $setOnInsert: { at: 't', _id: expect.stringMatching(/^[0-9a-f-]{36}$/) } });
    expect(options).toEqual({ upsert: true });

    await collection.updateOne({ _id: 'x' }, { $inc: { n: 1 } }, { upsert: true });
    await collection.updateOne({ day: 'd' }, { $setOnInsert: { _id: 'y' } }, { upsert: true });
    await collection.updateOne({ day: 'd' }, { $inc: { n: 1 } });
    expect(driver.updateOne.mock.calls.slice(1).map(([, update]) => update)).toEqual([
      { $inc: { n: 1 } },
      { $setOnInsert: { _id: 'y' } },
      { $inc: { n: 1 } },
    ]);

    await collection.findOneAndUpdate({ k: 1 }, { $set: { a: 1 } }, { upsert: true, sort: { k: -1 } });
    const [, upsertUpdate, upsertOptions] = driver.findOneAndUpdate.mock.calls[0] ?? [];
    expect(upsertUpdate?.$setOnInsert._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(upsertOptions).toEqual({ upsert: true, returnDocument: 'after', sort: { k: -1 } });
  });

  it('reports an unreachable server through ping', async () => {
    const store = await openStore({
      service: 'unreachable',
      mongodbUrl: 'mongodb://127.0.0.1:9/?serverSelectionTimeoutMS=200',
      dataDir: tmpdir(),
    });
    expect(store.kind).toBe('mongo');
    await expect(store.ping()).rejects.toThrow();
    await store.close();
  });

  it('runs a transaction in a driver session and passes that session to every operation in it', async () => {
    const session = {
      withTransaction: vi.fn(async (work: () => Promise<unknown>, _options: unknown) => work()),
    };
    const driverCollection = {
      findOneAndUpdate: vi.fn().mockResolvedValue({ _id: 'acc', balance: 6 }),
      insertOne: vi.fn().mockResolvedValue({}),
    };
    const client = {
      db: () => ({ collection: () => driverCollection }),
      withSession: vi.fn(async (work: (s: typeof session) => Promise<unknown>) => work(session)),
    };
    const store = mongoStore(client as unknown as MongoClient, 'billing');

    const result = await store.withTransaction(async (tx) => {
      const held = await tx
        .collection<StoreDocument & { balance: number }>('accounts')
        .findOneAndUpdate({ _id: 'acc' }, { $inc: { balance: -4 } });
      await tx.collection('reservations').insertOne({ _id: 'res' });
      return held?.balance;
    });

    expect(result).toBe(6);
    expect(client.withSession).toHaveBeenCalledTimes(1);
    expect(session.withTransaction.mock.calls[0]?.[1]).toMatchObject({
      readConcern: { level: 'snapshot' },
      writeConcern: { w: 'majority' },
    });
    expect(driverCollection.findOneAndUpdate.mock.calls[0]?.[2]).toMatchObject({ session, returnDocument: 'after' });
    expect(driverCollection.insertOne.mock.calls[0]?.[1]).toEqual({ session });
    // Outside a transaction no session is passed.
    await store.collection('reservations').insertOne({ _id: 'plain' });
    expect(driverCollection.insertOne.mock.calls[1]?.[1]).toEqual({});
  });
});
