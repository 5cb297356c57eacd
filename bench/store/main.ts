// bench/store: costs of the embedded store's hot paths on this machine: single writes, a large
// document's insert, a batch's `$set`, `_id` lookups, scans, conditional debits, and the provider's
// `versions.latest` lookup ({kind, key} newest first, on its declared index) at 200k and 1M documents
// with the RSS and restart time of a fresh process holding them, each beside the same SQL through
// libsql directly in the same run.
// Not a test: it prints figures.
// Run: npx tsx bench/store/main.ts   Env: BENCH_DOCS (10000), BENCH_LOOKUP_SIZES (200000,1000000).
import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'libsql';
import { openEmbeddedStore, type StoreDocument } from '@vrs/store';
import { withTempDir } from '../support/figures';

interface Doc extends StoreDocument {
  group: string;
  n: number;
  text: string;
}

interface Version extends StoreDocument {
  kind: string;
  key: string;
  fetchedAt: string;
  data: { title: string; description: string; views: number };
}

const docCount = Number(process.env.BENCH_DOCS ?? 10_000);
const lookupSizes = (process.env.BENCH_LOOKUP_SIZES ?? '200000,1000000').split(',').map(Number);
const KEYS_PER_KIND = 50_000;
const LOOKUPS = 20_000;
const kinds = ['video', 'transcript', 'comments', 'channel'] as const;
const kindAt = (i: number): string => kinds[i % kinds.length] ?? kinds[0];
const latestIndex = { key: { kind: 1 as const, key: 1 as const, fetchedAt: -1 as const }, name: 'kind_key_newest_first' };
const latestQuery = (i: number) => ({ kind: kindAt(i), key: `k${(i * 7919) % KEYS_PER_KIND}` });
const latestOptions = { sort: { fetchedAt: -1 as const, _id: -1 as const } };
/** The SQL the store runs for `latestQuery` with `latestOptions` (checked in the store's tests through queryPlan). */
const RAW_LATEST =
  `SELECT doc FROM "c_versions" WHERE json_extract(doc, '$.kind') = ? AND json_extract(doc, '$.key') = ? ` +
  `ORDER BY json_extract(doc, '$.fetchedAt') DESC, id DESC LIMIT 1`;

function row(label: string, value: string): void {
  console.log(`${label.padEnd(58)} ${value}`);
}

/** µs per op of `run`, printed by the caller. */
async function measureQuietly(ops: number, run: () => Promise<void> | void): Promise<number> {
  const start = performance.now();
  await run();
  return ((performance.now() - start) * 1000) / ops;
}

async function measure(label: string, ops: number, run: () => Promise<void>): Promise<void> {
  const us = await measureQuietly(ops, run);
  row(label, `${String(Math.round(1_000_000 / us)).padStart(9)} ops/s  ${us.toFixed(1).padStart(8)} µs/op`);
}

const comment = (i: number) => ({
  id: `Ugz${i}-comment`,
  text: 'A comment of a usual length, with a few words more than the shortest ones. '.repeat(2),
  author: { id: `UC${i}`, name: `Author ${i}`, url: `https://www.youtube.com/@author${i}`, isCreator: false, isVerified: i % 7 === 0 },
  likeCount: i * 3,
  replyCount: i % 5,
  publishedTimeText: '3 days ago',
  isPinned: false,
  isHearted: i % 11 === 0,
});
const thousandComments = Array.from({ length: 1_000 }, (_, i) => comment(i));
/** A newest-first collection as the provider saves it: built afresh for each insert, as a fetch builds it. */
const commentsVersion = (id: string) => ({
  _id: id,
  kind: 'newestComments',
  key: id,
  fetchedAt: '2026-11-27T00:00:00.000Z',
  data: { videoId: 'xaQJbozY_Is', comments: thousandComments.map((each) => ({ ...each, author: { ...each.author } })), complete: true },
});

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/**
 * Child mode: opens a store that already holds the versions, as a restarted service would, and
 * prints the open time, the lookup cost through the store and through raw libsql, and its RSS.
 */
async function probe(dir: string): Promise<void> {
  const start = performance.now();
  const store = await openEmbeddedStore(dir);
  const versions = store.collection<Version>('versions');
  await versions.createIndexes([latestIndex]);
  const first = await versions.findOne(latestQuery(0), latestOptions);
  const openMs = performance.now() - start;
  if (!first) throw new Error('the probe found no version');
  // One untimed pass warms SQLite's and the system's caches for both timed passes.
  for (let i = 0; i < LOOKUPS; i++) await versions.findOne(latestQuery(i), latestOptions);
  const rss = process.memoryUsage().rss;

  const raw = new Database(join(dir, 'store.db'));
  const statement = raw.prepare(RAW_LATEST).raw();
  const rawUs = await measureQuietly(LOOKUPS, () => {
    for (let i = 0; i < LOOKUPS; i++) {
      const { kind, key } = latestQuery(i);
      JSON.parse((statement.get(kind, key) as [string])[0]);
    }
  });
  raw.close();

  const storeUs = await measureQuietly(LOOKUPS, async () => {
    for (let i = 0; i < LOOKUPS; i++) await versions.findOne(latestQuery(i), latestOptions);
  });
  await store.close();
  console.log(JSON.stringify({ openMs, storeUs, rawUs, rss }));
}

/** Fills `dir` with `total` versions (adding to what is there), in transactions of 5,000. */
async function fill(dir: string, from: number, total: number): Promise<void> {
  const store = await openEmbeddedStore(dir);
  await store.collection<Version>('versions').createIndexes([latestIndex]);
  for (let start = from; start < total; start += 5_000) {
    const batch: Version[] = [];
    for (let i = start; i < Math.min(total, start + 5_000); i++) {
      batch.push({
        _id: `ver_${String(i).padStart(8, '0')}`,
        kind: kindAt(i),
        key: `k${Math.floor(i / kinds.length) % KEYS_PER_KIND}`,
        fetchedAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
        data: { title: `Video ${i}`, description: 'lorem ipsum dolor sit amet '.repeat(12), views: i * 13 },
      });
    }
    await store.withTransaction((tx) => tx.collection<Version>('versions').insertMany(batch));
  }
  await store.close();
}

function runProbe(dir: string): Promise<{ openMs: number; storeUs: number; rawUs: number; rss: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--probe', dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.once('close', (code) => {
      if (code !== 0) reject(new Error(`probe exited with ${code}`));
      else {
        // The probe's last line is its figures.
        const trimmed = output.trim();
        resolve(JSON.parse(trimmed.slice(trimmed.lastIndexOf('\n') + 1)));
      }
    });
  });
}

/** A libsql database of one `docs` table, set up as the store's (16 MiB cache, SQLite's own checkpoints). */
function openRawDatabase(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('cache_size = -16384');
  db.exec('CREATE TABLE docs (id TEXT PRIMARY KEY, doc TEXT NOT NULL)');
  return db;
}

async function hotPaths(): Promise<void> {
  await withTempDir('bench-store-', async (dir) => {
    let store = await openEmbeddedStore(dir);
    let docs = store.collection<Doc>('docs');
    const doc = (i: number): Doc => ({ _id: `d${i}`, group: `g${i % 100}`, n: i, text: 'lorem ipsum '.repeat(20) });

    await measure('insertOne, one at a time (one commit each)', 2_000, async () => {
      for (let i = 0; i < 2_000; i++) await docs.insertOne(doc(i));
    });
    await measure('insertOne, 100 concurrent', docCount, async () => {
      for (let i = 2_000; i < docCount + 2_000; i += 100) {
        await Promise.all(Array.from({ length: 100 }, (_, k) => docs.insertOne(doc(i + k))));
      }
    });
    // A provider version of 1,000 comments (a newest-first collection): the store's check and
    // bookkeeping beside the same INSERT of its JSON through libsql directly, alternating rounds.
    const comments = store.collection<StoreDocument & { data: unknown }>('comments');
    const raw = openRawDatabase(join(dir, 'raw.db'));
    const rawInsert = raw.prepare('INSERT INTO docs (id, doc) VALUES (?, ?)');
    const largeDocs = 200;
    let storeUs = 0;
    let rawUs = 0;
    for (let round = 0; round < 4; round++) {
      const ids = Array.from({ length: largeDocs }, (_, i) => `large-${round}-${i}`);
      storeUs += await measureQuietly(largeDocs, async () => {
        for (const id of ids) await comments.insertOne(commentsVersion(id));
      });
      rawUs += await measureQuietly(largeDocs, async () => {
        for (const id of ids) rawInsert.run(id, JSON.stringify(commentsVersion(id)));
      });
    }
    raw.close();
    row('insertOne of a 1,000-comment document', `${(storeUs / 4).toFixed(1).padStart(25)} µs/op`);
    row(
      '  raw libsql, INSERT of its JSON (baseline)',
      `${(rawUs / 4).toFixed(1).padStart(25)} µs/op  (store / raw ${(storeUs / rawUs).toFixed(2)})`,
    );

    // Closing a batch of reservations (ADR 0119): `$set` of scalars on 40 documents named by `_id`,
    // one transaction each, beside the same UPDATE through libsql directly, alternating rounds.
    const batch = 40;
    const batches = 250;
    const raw2 = openRawDatabase(join(dir, 'raw2.db'));
    const rawFill = raw2.prepare('INSERT INTO docs (id, doc) VALUES (?, ?)');
    raw2.exec('BEGIN');
    for (let i = 0; i < docCount; i++) rawFill.run(`d${i}`, JSON.stringify(doc(i)));
    raw2.exec('COMMIT');
    const inList = Array.from({ length: batch }, () => '?').join(', ');
    const rawSet = raw2.prepare(`UPDATE docs SET doc = json_set(doc, '$.group', ?, '$.n', json(?)) WHERE id IN (${inList})`);
    const idsOf = (k: number) => Array.from({ length: batch }, (_, i) => `d${(k * batch + i) % docCount}`);
    let setUs = 0;
    let rawSetUs = 0;
    for (let round = 0; round < 4; round++) {
      setUs += await measureQuietly(batch * batches, async () => {
        for (let k = 0; k < batches; k++) {
          await store.withTransaction((tx) =>
            tx.collection<Doc>('docs').updateMany({ _id: { $in: idsOf(k) } }, { $set: { group: `closed-${round}`, n: k } }),
          );
        }
      });
      rawSetUs += await measureQuietly(batch * batches, () => {
        for (let k = 0; k < batches; k++) {
          raw2.exec('BEGIN IMMEDIATE');
          rawSet.run(`closed-${round}`, JSON.stringify(k), ...idsOf(k));
          raw2.exec('COMMIT');
        }
      });
    }
    raw2.close();
    row(`updateMany $set by _id, ${batch} a transaction`, `${(setUs / 4).toFixed(1).padStart(25)} µs/document`);
    row(
      '  raw libsql, UPDATE with json_set (baseline)',
      `${(rawSetUs / 4).toFixed(1).padStart(25)} µs/document  (store / raw ${(setUs / rawSetUs).toFixed(2)})`,
    );

    await measure('findOne by _id', 100_000, async () => {
      for (let i = 0; i < 100_000; i++) await docs.findOne({ _id: `d${i % docCount}` });
    });
    await measure(`find by an unindexed field (scan of ${docCount + 2_000})`, 200, async () => {
      for (let i = 0; i < 200; i++) await docs.find({ group: `g${i % 100}` });
    });
    await docs.createIndexes([{ key: { group: 1 } }]);
    await measure('find by the same field, indexed (~120 docs each)', 2_000, async () => {
      for (let i = 0; i < 2_000; i++) await docs.find({ group: `g${i % 100}` });
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
    const ledger = store.collection<StoreDocument & { accountId: string; amount: number }>('ledger');
    let ledgerId = 0;
    await measure('transaction: hold + reservation + ledger line', 5_000, async () => {
      for (let i = 0; i < 5_000; i++) {
        await store.withTransaction(async (tx) => {
          await tx
            .collection<StoreDocument & { balance: number }>('accounts')
            .findOneAndUpdate({ _id: 'acc', balance: { $gte: 1 } }, { $inc: { balance: -1 } });
          await tx.collection('reservations').insertOne({ _id: `res${i}` });
          await tx.collection<StoreDocument & { accountId: string; amount: number }>('ledger').insertOne({
            _id: `led${ledgerId++}`,
            accountId: 'acc',
            amount: -1,
          });
        });
      }
    });
    console.log(`ledger lines written: ${await ledger.countDocuments()}`);
    await store.close();

    await measure(`reopen (${docCount + 2_000} docs)`, 1, async () => {
      store = await openEmbeddedStore(dir);
    });
    docs = store.collection<Doc>('docs');
    console.log(`documents after reopen: ${await docs.countDocuments()}`);
    await store.close();
  });
}

async function lookups(): Promise<void> {
  await withTempDir('bench-store-versions-', async (dir) => {
    let filled = 0;
    for (const size of lookupSizes) {
      const start = performance.now();
      await fill(dir, filled, size);
      const fillS = (performance.now() - start) / 1000;
      filled = size;
      const { size: bytes } = await stat(join(dir, 'store.db'));
      const result = await runProbe(dir);
      console.log(`\nversions.latest ({kind, key} newest first) at ${size.toLocaleString('en')} documents`);
      row('  filled (5,000 per transaction)', `${fillS.toFixed(1)} s; database file ${mib(bytes)}`);
      row('  through the store (findOne)', `${result.storeUs.toFixed(1)} µs/op`);
      row('  raw libsql, same SQL + JSON.parse (baseline)', `${result.rawUs.toFixed(1)} µs/op`);
      row('  restart: open + createIndexes + first lookup', `${result.openMs.toFixed(1)} ms`);
      row('  RSS of that process after a pass of lookups', mib(result.rss));
    }
  });
}

if (process.argv[2] === '--probe') {
  const dir = process.argv[3];
  if (dir === undefined) throw new Error('--probe needs the directory to open');
  await probe(dir);
} else {
  await hotPaths();
  await lookups();
}
