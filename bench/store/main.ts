// bench/store: costs of the embedded store's hot paths on this machine (durable writes with group
// commit, `_id` lookups, scans, conditional debits, reopen). Not a test: it prints figures.
// Run: npx tsx bench/store/main.ts   Env: BENCH_DOCS (10000).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedStore, type StoreDocument } from '@vrs/store';

interface Doc extends StoreDocument {
  group: string;
  n: number;
  text: string;
}

const docCount = Number(process.env.BENCH_DOCS ?? 10_000);

async function measure(label: string, ops: number, run: () => Promise<void>): Promise<void> {
  const start = performance.now();
  await run();
  const ms = performance.now() - start;
  console.log(
    `${label.padEnd(46)} ${String(Math.round((ops / ms) * 1000)).padStart(9)} ops/s  ${((ms * 1000) / ops).toFixed(1).padStart(8)} µs/op`,
  );
}

const dir = await mkdtemp(join(tmpdir(), 'bench-store-'));
try {
  let store = await openEmbeddedStore(dir);
  let docs = store.collection<Doc>('docs');
  const doc = (i: number): Doc => ({ _id: `d${i}`, group: `g${i % 100}`, n: i, text: 'lorem ipsum '.repeat(20) });

  await measure('insertOne, one at a time (1 fdatasync each)', 200, async () => {
    for (let i = 0; i < 200; i++) await docs.insertOne(doc(i));
  });
  await measure('insertOne, 100 concurrent (group commit)', docCount, async () => {
    for (let i = 200; i < docCount + 200; i += 100) {
      await Promise.all(Array.from({ length: 100 }, (_, k) => docs.insertOne(doc(i + k))));
    }
  });
  await measure('findOne by _id', 100_000, async () => {
    for (let i = 0; i < 100_000; i++) await docs.findOne({ _id: `d${i % docCount}` });
  });
  await measure(`find by field (scan of ${docCount})`, 200, async () => {
    for (let i = 0; i < 200; i++) await docs.find({ group: `g${i % 100}` });
  });
  await measure('countDocuments by field (scan)', 200, async () => {
    for (let i = 0; i < 200; i++) await docs.countDocuments({ n: { $gte: i } });
  });

  const accounts = store.collection<StoreDocument & { balance: number }>('accounts');
  await accounts.insertOne({ _id: 'acc', balance: 1_000_000 });
  await measure('conditional debit, 200 concurrent', 20_000, async () => {
    for (let round = 0; round < 100; round++) {
      await Promise.all(
        Array.from({ length: 200 }, () => accounts.findOneAndUpdate({ _id: 'acc', balance: { $gte: 1 } }, { $inc: { balance: -1 } })),
      );
    }
  });
  await store.close();

  await measure(`reopen (replay of ${docCount + 200} docs)`, 1, async () => {
    store = await openEmbeddedStore(dir);
  });
  docs = store.collection<Doc>('docs');
  console.log(`documents after reopen: ${await docs.countDocuments()}`);
  await store.close();
} finally {
  await rm(dir, { recursive: true, force: true });
}
