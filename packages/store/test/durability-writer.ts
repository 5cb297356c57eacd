/**
 * Child process of durability.test.ts: writes until killed, printing each write only after its
 * promise resolved (i.e. after its SQLite commit). Usage: node --import tsx durability-writer.ts <dir>
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { StoreDocument } from '../src/port';
import { openEmbeddedStore } from '../src/embedded/embedded-store';

const WRITERS = 8;

// A small threshold: SQLite checkpoints every few commits, so the kill also lands in the middle of checkpoints.
const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: durability-writer.ts <data dir>');
const store = await openEmbeddedStore(dataDir, { autocheckpointPages: 4 });
const docs = store.collection<StoreDocument & { payload: string }>('acks');
const counters = store.collection<StoreDocument & { n: number }>('counters');
const run = process.pid;

async function writer(id: number): Promise<never> {
  for (let i = 0; ; i++) {
    const docId = `${run}-${id}-${i}`;
    await docs.insertOne({ _id: docId, payload: 'x'.repeat(200) });
    process.stdout.write(`insert ${docId}\n`);
    const counter = await counters.findOneAndUpdate({ _id: `writer-${id}` }, { $inc: { n: 1 } }, { upsert: true });
    process.stdout.write(`count writer-${id} ${counter?.n}\n`);
    // The store answers without I/O waits: give the event loop a turn so stdout reaches the parent.
    await nextTurn();
  }
}

await Promise.all(Array.from({ length: WRITERS }, (_, id) => writer(id)));
