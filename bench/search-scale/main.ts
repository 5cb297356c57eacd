// bench/search-scale: project search at 10k, 100k (and with --million, 1M) evidence chunks: distinct
// queries of each class (bench/support/query-classes.ts) through the research service's search
// procedure, each beside the raw engine's own time and FTS5 alone (the engine before ADR 0052) on the
// same index, measured alternately in one run; then index build, RSS, event-loop blocks and ingestion
// through the API (docs/benchmarks.md). Not a test: it prints figures.
// Run: npm run bench:search-scale [-- --million | --ingest-only]   Env: BENCH_QUERIES (200),
// BENCH_INGEST (10000), BENCH_INGEST_CONNECTIONS (1,4), BENCH_INGEST_KINDS (upserts,inserts,updates),
// BENCH_STORE_ROUND_TRIP_MS: the service's store that far away, as MongoDB is in production (unset: embedded).
import { mkdir } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createMemoryBus } from '@vrs/bus';
import { createLogger } from '@vrs/kit';
import { createResearchModule } from '@vrs/research';
import { openEmbeddedSearch, type SearchDocument } from '@vrs/search';
import { SqliteSearchCore } from '@vrs/search/embedded/sqlite-search-core';
import { openEmbeddedStore } from '@vrs/store';
import { apiClient, eventually } from '@vrs/testing/api-client';
import { startBenchGateway } from '../support/bench-gateway';
import { cpuMsOf } from '../support/process-cpu';
import { sentence } from '../support/transcript-corpus';
import { loadAverages, percentile, withTempDir } from '../support/figures';
import { storeAway } from '../support/store-away';
import { queryClasses } from '../support/query-classes';

const { values } = parseArgs({
  options: { million: { type: 'boolean', default: false }, 'ingest-only': { type: 'boolean', default: false } },
});
// --ingest-only skips the search sizes: the ingestion figures alone take seconds, not minutes.
const sizes = values['ingest-only'] ? [] : values.million ? [10_000, 100_000, 1_000_000] : [10_000, 100_000];
const queryRuns = Number(process.env.BENCH_QUERIES ?? 200);
const millionRuns = 100;
const ingestCount = Number(process.env.BENCH_INGEST ?? 10_000);
/** A client posting batches one at a time, and one keeping a few in flight. */
const ingestConnections = (process.env.BENCH_INGEST_CONNECTIONS ?? '1,4').split(',').map(Number);
/** Which ingestion runs: see IngestKind. */
const ingestKinds = (process.env.BENCH_INGEST_KINDS ?? 'upserts,inserts,updates').split(',') as IngestKind[];
const storeRoundTripMs = Number(process.env.BENCH_STORE_ROUND_TRIP_MS ?? 0);

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
const percentilesOf = (times: number[]) => {
  const sorted = times.toSorted((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p90: percentile(sorted, 0.9), p99: percentile(sorted, 0.99) };
};

function chunk(i: number): SearchDocument {
  return { id: `ev_${String(i).padStart(8, '0')}`, text: `${sentence(i)} marker${i}`, stored: { sourceKey: `bench:${i}` } };
}

async function measureSize(size: number, runDir: string) {
  const store = await openEmbeddedStore(join(runDir, `store-${size}`));
  const searchDir = join(runDir, `search-${size}`);
  const search = openEmbeddedSearch(searchDir);
  const bus = createMemoryBus();
  const module = await createResearchModule({
    store: storeRoundTripMs > 0 ? storeAway(store, storeRoundTripMs) : store,
    bus,
    search,
    // Every timed search reaches the engine: the same query again would be a result-cache hit (ADR 0042).
    resultCacheBytes: 0,
    logger: createLogger('bench-search-scale'),
    provider: {} as never,
    billing: {} as never,
    llm: null,
  });
  await module.start();
  const api = module.router.createCaller({ requestId: 'bench', caller: 'bench' });
  const accountId = 'acct_bench';
  const project = await api.projects.create({ accountId, name: `scale ${size}` });
  // The project's evidence is written straight into the index (as a catch-up from the store would):
  // ingestion through the API is measured below, at a size the current store can hold.
  await store.collection('projects').updateOne({ _id: project.id }, { $set: { indexVersion: 1 } });

  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  // The baseline for the blocks below: this thread doing nothing, on this machine, in this run.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const idleBlockMs = loop.max / 1e6;
  loop.reset();
  const buildStarted = performance.now();
  // Batches as the service's catch-up writes them; generating them is the bench's own work, kept small.
  const batch = 500;
  for (let start = 0; start < size; start += batch) {
    const docs = Array.from({ length: Math.min(batch, size - start) }, (_, k) => chunk(start + k));
    await search.apply(project.id, docs, start + batch >= size ? { from: 0, to: 1 } : undefined);
  }
  const buildSeconds = (performance.now() - buildStarted) / 1000;
  const buildBlockMs = loop.max / 1e6;
  const rssAfterBuild = process.memoryUsage().rss;

  const engine = new SqliteSearchCore(searchDir);
  const fts5Alone = new SqliteSearchCore(searchDir, { postingsMinDocuments: Number.POSITIVE_INFINITY });
  const rows = [];
  loop.reset();
  let serviceBlockMs = 0;
  // A million-chunk project's searches take long enough to ask fewer; 100 still make p90 the 90th.
  const runs = size >= 1_000_000 ? Math.min(queryRuns, millionRuns) : queryRuns;
  for (const [name, make] of Object.entries(queryClasses)) {
    const serviceTimes: number[] = [];
    const engineTimes: number[] = [];
    const fts5AloneTimes: number[] = [];
    // Warm-up queries of the class, none of them timed again: each timed query is a new one.
    for (let i = 0; i < 20; i++) {
      const q = make(100_000 + i);
      await api.evidence.search({ accountId, projectId: project.id, q, limit: 10 });
      engine.search(project.id, q, 10);
      fts5Alone.search(project.id, q, 10);
    }
    const timeService = async (q: string) => {
      const started = performance.now();
      loop.reset();
      await api.evidence.search({ accountId, projectId: project.id, q, limit: 10 });
      serviceTimes.push(performance.now() - started);
      serviceBlockMs = Math.max(serviceBlockMs, loop.max / 1e6);
    };
    const timeEngine = (q: string) => {
      const started = performance.now();
      engine.search(project.id, q, 10);
      engineTimes.push(performance.now() - started);
    };
    for (let i = 0; i < runs; i++) {
      const q = make(i);
      // Who goes first alternates: the first to ask a new query reads its words' postings and pages
      // from the OS's cache or the disk, the second finds them there. Each timed search follows the
      // same 5 ms idle: straight after another search the thread runs warm, and a caller's next
      // query seldom comes that soon.
      if (i % 2 === 0) {
        await timeService(q);
        await new Promise((resolve) => setTimeout(resolve, 5));
        timeEngine(q);
      } else {
        timeEngine(q);
        await new Promise((resolve) => setTimeout(resolve, 5));
        await timeService(q);
      }
      const started = performance.now();
      fts5Alone.search(project.id, q, 10);
      fts5AloneTimes.push(performance.now() - started);
      // The raw engine held this thread: let the delayed timer fire before the next service search is watched.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    rows.push({
      size,
      query: name,
      service: percentilesOf(serviceTimes),
      engine: percentilesOf(engineTimes),
      fts5Alone: percentilesOf(fts5AloneTimes),
    });
  }
  loop.disable();
  const hits = (await api.evidence.search({ accountId, projectId: project.id, q: queryClasses['common pair'](0), limit: 10 })).results
    .length;
  if (hits !== 10) throw new Error(`expected a full page of 10 results at ${size} chunks, got ${hits}`);
  engine.close();
  fts5Alone.close();
  await module.stop();
  await search.close();
  await store.close();
  return { size, buildSeconds, idleBlockMs, buildBlockMs, serviceBlockMs, rssAfterBuild, rows };
}

/**
 * What an ingestion run posts: items without sourceKeys (plain inserts), items with new sourceKeys
 * (upserts that insert), or the same sourceKeys again with new text (upserts that update the stored
 * items; the first pass that stores them is not timed).
 */
type IngestKind = 'inserts' | 'upserts' | 'updates';
const kindLabels: Record<IngestKind, string> = {
  inserts: 'without sourceKey (store inserts)',
  upserts: 'with new sourceKeys (store upserts)',
  updates: 'with known sourceKeys (upserts updating)',
};

/**
 * Evidence posted through the HTTP API in batches of 100, timed until the last item is found by
 * search, with the gateway's CPU time over the same span.
 */
async function measureIngestion(runDir: string, kind: IngestKind, connections: number) {
  const ingestDir = join(runDir, `ingest-${kind}-${connections}`);
  await mkdir(ingestDir, { recursive: true });
  const gateway = await startBenchGateway(`bench-ingest-${kind}-${connections}`, ingestDir, {
    RATE_LIMIT_STORE: 'memory',
  });
  try {
    const api = apiClient(gateway.url, { 'x-demo-user': 'bench' });
    const { body: project } = await api('POST', '/v1/projects', { json: { name: 'ingest' } });
    /** Posts every chunk, each connection its next batch as soon as its previous one is answered; then waits until the last is found. */
    const ingest = async (item: (i: number) => { text: string; sourceKey?: string }, lastWord: string) => {
      let nextOffset = 0;
      const postBatches = async () => {
        for (let offset = nextOffset; offset < ingestCount; offset = nextOffset) {
          nextOffset += 100;
          const items = Array.from({ length: Math.min(100, ingestCount - offset) }, (_, i) => item(offset + i));
          const response = await api('POST', `/v1/projects/${project.id}/evidence`, { json: { items } });
          if (response.status !== 200) throw new Error(`ingestion failed: ${response.status} ${response.text}`);
        }
      };
      await Promise.all(Array.from({ length: connections }, postBatches));
      const stored = performance.now();
      await eventually(
        async () => {
          const last = await api('GET', `/v1/projects/${project.id}/search?q=${lastWord}`);
          return last.body.results?.[0]?.text?.endsWith(lastWord) ? true : undefined;
        },
        { timeoutMs: 600_000, intervalMs: 20, what: 'the ingested evidence to be searchable' },
      );
      return stored;
    };
    const keyed = kind !== 'inserts';
    const first = (i: number) => ({ text: chunk(i).text, ...(keyed && { sourceKey: `bench:${i}` }) });
    if (kind === 'updates') await ingest(first, `marker${ingestCount - 1}`);
    const started = performance.now();
    const cpuAtStart = cpuMsOf(gateway.child.pid);
    const stored =
      kind === 'updates'
        ? await ingest((i) => ({ text: `${chunk(i).text} revised${i}`, sourceKey: `bench:${i}` }), `revised${ingestCount - 1}`)
        : await ingest(first, `marker${ingestCount - 1}`);
    const storedSeconds = (stored - started) / 1000;
    const searchableSeconds = (performance.now() - started) / 1000;
    const cpuAtEnd = cpuMsOf(gateway.child.pid);
    // The gateway's CPU time (its worker threads included) per chunk hardly depends on what else the
    // shared machine runs, unlike the wall time; the 1-minute load average says how quiet it was.
    const gatewayCpuSeconds = cpuAtStart === null || cpuAtEnd === null ? null : (cpuAtEnd - cpuAtStart) / 1000;
    return { storedSeconds, searchableSeconds, gatewayCpuSeconds, load: loadavg()[0] ?? Number.NaN };
  } finally {
    await gateway.stop();
  }
}

type SizeResult = Awaited<ReturnType<typeof measureSize>>;

/** Issue 40's goal for a distinct query's p90, by project size. */
const p90Goals: Record<number, number> = { 10000: 5, 100000: 15, 1000000: 50 };

function printSearch(results: SizeResult[]) {
  console.log(
    `\nbench/search-scale — top 10, ${queryRuns} distinct queries of each class per row (${Math.min(queryRuns, millionRuns)} at 1M), single caller, warm`,
  );
  console.log("service: research's search procedure with its result cache off, so each search reaches the engine");
  console.log(
    storeRoundTripMs > 0
      ? `its store ${storeRoundTripMs} ms away (each call waits that long first; no read answered from memory)\n`
      : 'its store embedded\n',
  );
  console.log(
    '| chunks | query | service p50 ms | service p90 ms (goal) | service p99 ms | raw engine p50 ms | raw engine p90 ms | service / engine (p50, p90; goal ≤ 1.5) | FTS5 alone p50 ms | FTS5 alone p90 ms |',
  );
  console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const result of results)
    for (const { size, query, service, engine, fts5Alone } of result.rows)
      console.log(
        `| ${size} | ${query} | ${service.p50.toFixed(2)} | ${service.p90.toFixed(2)} (≤ ${p90Goals[size] ?? '–'}) | ${service.p99.toFixed(2)} | ${engine.p50.toFixed(2)} | ${engine.p90.toFixed(2)} | ${(service.p50 / engine.p50).toFixed(2)}, ${(service.p90 / engine.p90).toFixed(2)} | ${fts5Alone.p50.toFixed(2)} | ${fts5Alone.p90.toFixed(2)} |`,
      );
  console.log(
    '\n| chunks | index build s | chunks/s | RSS after build | longest event-loop block: build / service searches / idle 2 s (baseline) |',
  );
  console.log('|---:|---:|---:|---:|---:|');
  for (const result of results)
    console.log(
      `| ${result.size} | ${result.buildSeconds.toFixed(1)} | ${Math.round(result.size / result.buildSeconds)} | ${mb(result.rssAfterBuild)} | ${result.buildBlockMs.toFixed(0)} / ${result.serviceBlockMs.toFixed(0)} / ${result.idleBlockMs.toFixed(0)} ms |`,
    );
}

async function main() {
  await withTempDir('vrs-bench-search-scale-', async (runDir) => {
    const results = [];
    for (const size of sizes) {
      results.push(await measureSize(size, runDir));
      console.log(`measured ${size} chunks`);
    }
    const ingestion = [];
    for (const connections of ingestConnections)
      for (const kind of ingestKinds) ingestion.push({ connections, kind, ...(await measureIngestion(runDir, kind, connections)) });

    if (results.length > 0) printSearch(results);
    console.log(`\npeak RSS of this process: ${mb(process.resourceUsage().maxRSS * 1024)}`);
    console.log(`load average at the end (1, 5, 15 min): ${loadAverages(' ')}`);
    console.log(`\ningestion through the API, ${ingestCount} chunks in batches of 100, until the last is searchable`);
    console.log(
      '| items | connections | all stored after s | searchable after s | chunks/s until searchable | gateway CPU s | chunks per gateway CPU s | load average (1 min) |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const run of ingestion)
      console.log(
        `| ${kindLabels[run.kind]} | ${run.connections} | ${run.storedSeconds.toFixed(1)} | ${run.searchableSeconds.toFixed(1)} | ${Math.round(ingestCount / run.searchableSeconds)} | ${run.gatewayCpuSeconds?.toFixed(2) ?? 'n/a'} | ${run.gatewayCpuSeconds ? Math.round(ingestCount / run.gatewayCpuSeconds) : 'n/a'} | ${run.load.toFixed(2)} |`,
      );
  });
}

await main();
