// bench/search: metered searchPrivateEvidence through the full stack at 64 connections (an API key, and
// a demo user), as `npm start` runs it and as docker compose runs it (each service its own process),
// beside a bare Express 5 route and a bare node:http server answering the same JSON, all in one run so
// the ratios hold on a noisy machine; its phases and per-process figures are listed in
// docs/benchmarks.md. Not a test: it prints figures (issue 15 goals 1 and 3).
// Env: BENCH_SECONDS (10), BENCH_CONNECTIONS (64), BENCH_ITEMS (10000);
// BENCH_DEV_SHAPE=0 leaves out the stack as docker compose runs it;
// BENCH_CODE=source runs both stacks' TypeScript through tsx instead of their bundles (ADR 0043);
// BENCH_BEFORE=1 adds a second gateway counting rate-limit hits as before ADR 0039, measured in the same run;
// BENCH_RATE_LIMIT_SYNC_INTERVAL_MS its RATE_LIMIT_SYNC_INTERVAL_MS (0: a NATS KV round trip per hit);
// VRS_CPU_PROF_DIR and BENCH_NODE_ARGS as for every bench (docs/benchmarks.md).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { Agent, get } from 'node:http';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { required } from '@vrs/kit';
import { startProcess, type RunningProcess } from '@vrs/testing/processes';
import { startBenchGateway } from '../support/bench-gateway';
import { measuredWindow } from '../support/profile-window';
import { stackFigures, startDevShapeStack, type DevShapeStack } from '../support/dev-stack';
import { apiClient } from '@vrs/testing/api-client';
import { sentence, vocabulary } from '../support/transcript-corpus';
import { queryClasses, type QueryClass } from '../support/query-classes';
import { classRequests, commonWordQueryRequests, commonWords, commonWordSets, savedSearchCycleRequests } from '../support/search-phases';
import { apiKeyHeaders, seedSearchProject } from '../support/search-seed';
import { percentile } from '../support/figures';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
const itemCount = Number(process.env.BENCH_ITEMS ?? 10_000);

// The default query pairs two mid-frequency words of the corpus, as a researcher's query would;
// `BENCH_QUERY` overrides it.
const query = process.env.BENCH_QUERY ?? `${vocabulary[150]} ${vocabulary[400]}`;

/** Queries a single caller sends of each class: after 50 to warm up, 150 timed, all distinct. */
const latencyQueries = 150;

/**
 * One caller, one request at a time over one kept-alive connection: 50 queries to warm up, then
 * `latencyQueries` more, each timed here to the microsecond (autocannon's latencies are whole
 * milliseconds, where goal 2 at 10k chunks is 5 ms). Every query of a class is a new one.
 */
async function singleCallerLatency(url: string, headers: Record<string, string>, queryClass?: QueryClass) {
  const target = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  // Far from where the 64-connection phases began, so no query of theirs comes again (a second ask may be cached).
  const pathOf = (n: number) =>
    queryClass ? `${target.pathname}?q=${encodeURIComponent(queryClasses[queryClass](500_000 + n))}` : `${target.pathname}${target.search}`;
  const ask = (path: string) =>
    new Promise<void>((resolve, reject) => {
      get({ host: target.hostname, port: target.port, path, headers, agent }, (response) => {
        response.resume();
        response.on('end', () =>
          response.statusCode === 200 ? resolve() : reject(new Error(`${queryClass ?? 'repeated query'}: ${response.statusCode}`)),
        );
      }).on('error', reject);
    });
  try {
    for (let n = 0; n < 50; n++) await ask(pathOf(n));
    const times: number[] = [];
    for (let n = 50; n < 50 + latencyQueries; n++) {
      const started = performance.now();
      await ask(pathOf(n));
      times.push(performance.now() - started);
    }
    const sorted = times.toSorted((a, b) => a - b);
    return {
      name: queryClass ?? 'the repeated query (result cache)',
      p50: percentile(sorted, 0.5),
      p90: percentile(sorted, 0.9),
      p99: percentile(sorted, 0.99),
    };
  } finally {
    agent.destroy();
  }
}

/** The share of the first 2,000 seeded chunks holding a word of a common-word query, averaged over every 20th set. */
function commonWordCoverage(): number {
  const sets = commonWordSets.filter((_, i) => i % 20 === 0);
  const chunks = Array.from({ length: Math.min(itemCount, 2_000) }, (_, i) => new Set(sentence(i).split(' ')));
  let covered = 0;
  for (const set of sets) covered += chunks.filter((words) => set.some((word) => words.has(word))).length / chunks.length;
  return covered / sets.length;
}

type Figures = Awaited<ReturnType<typeof measure>>;

async function measure(
  name: string,
  url: string,
  headers: Record<string, string>,
  watched: { gateway?: RunningProcess; stack?: DevShapeStack; requests?: autocannon.Request[] } = {},
) {
  const { gateway, stack, requests } = watched;
  const processes = stack?.processes ?? (gateway ? [gateway] : []);
  await autocannon({ url, connections, duration: 2, headers, requests }); // warm-up
  // Read after the warm-up: the delay figures start afresh, and CPU is counted from here.
  const before = await stackFigures(processes);
  const result = await measuredWindow(() => autocannon({ url, connections, duration: seconds, headers, requests }), name);
  const after = await stackFigures(processes);
  const waiting = (from: number | undefined, to: number | undefined, sinceMs: number) =>
    from === undefined || to === undefined ? undefined : (to - from) / (sinceMs * 1000);
  // Each process during the run: its CPU (every thread) per request, the share of the run its main thread waited for a core.
  const loads = after.map((process, i) => {
    const atStart = required(before[i], `the figures of ${process.name} before the run`);
    return {
      name: process.name,
      rssMb: process.rssBytes / 1024 / 1024,
      maxEventLoopDelayMs: process.eventLoopDelayMs.max,
      cpuMicrosPerRequest: (process.cpuMicros - atStart.cpuMicros) / Math.max(1, result.requests.total),
      // The share of the run the main thread spent runnable but waiting for a core (Linux; ADR 0068).
      waitingShare: waiting(atStart.mainThread?.waitingMicros, process.mainThread?.waitingMicros, process.sinceMs),
    };
  });
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.errors + result.non2xx,
    // The gateway process (none for the bare baselines); with a separate-process stack, each process, the gateway last.
    process: loads.at(-1),
    stack: stack && loads,
  };
}

const seed = (api: ReturnType<typeof apiClient>) => seedSearchProject(api, itemCount, query);

async function main() {
  const runDir = await mkdtemp(join(tmpdir(), 'vrs-bench-'));
  const processes: RunningProcess[] = [];
  let devStack: DevShapeStack | undefined;
  try {
    const gateway = await startBenchGateway('bench-search', runDir, {
      RATE_LIMIT_STORE: process.env.BENCH_RATE_LIMIT_STORE ?? 'nats',
      ...(process.env.BENCH_RATE_LIMIT_SYNC_INTERVAL_MS
        ? { RATE_LIMIT_SYNC_INTERVAL_MS: process.env.BENCH_RATE_LIMIT_SYNC_INTERVAL_MS }
        : {}),
    });
    processes.push(gateway);
    const headers = { 'x-demo-user': 'bench' };
    const api = apiClient(gateway.url, headers);
    const seedStarted = performance.now();
    const { searchPath, sample } = await seed(api);
    // BENCH_BEFORE=1: a second gateway as before ADR 0039 (a NATS KV round trip per rate-limit hit),
    // on its own data, measured in the same run.
    if (process.env.BENCH_BEFORE) await mkdir(join(runDir, 'before'));
    const before = process.env.BENCH_BEFORE
      ? await startBenchGateway('bench-search-before', join(runDir, 'before'), {
          RATE_LIMIT_STORE: 'nats',
          RATE_LIMIT_SYNC_INTERVAL_MS: '0',
        })
      : undefined;
    if (before) processes.push(before);
    const beforeApi = before && apiClient(before.url, headers);
    const beforeSearch = beforeApi && (await seed(beforeApi));
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    const bodyFile = join(runDir, 'body.json');
    await writeFile(bodyFile, JSON.stringify(sample.body));
    const startBaseline = (kind: 'express' | 'http') =>
      startProcess({
        name: `baseline-${kind}`,
        entry: 'bench/search/baseline-server.ts',
        env: { BASELINE_KIND: kind, BASELINE_BODY: bodyFile },
        logDir: runDir,
        readyMessage: 'baseline listening',
      });
    const baselines = await Promise.all([startBaseline('express'), startBaseline('http')]);
    processes.push(...baselines);

    const keyHeaders = await apiKeyHeaders(api);

    const figures: Figures[] = [];
    /** Measures a phase and adds it to the table, in the order run. */
    const phase = async (...args: Parameters<typeof measure>) => {
      const measured = await measure(...args);
      figures.push(measured);
      return measured;
    };
    const fullStack = (name: string, phaseHeaders: Record<string, string>, requests?: autocannon.Request[]) =>
      phase(`full stack, ${name}`, `${gateway.url}${searchPath}`, phaseHeaders, { gateway, requests });
    const bareExpressPhase = (when = '') => phase(`bare Express 5 route, same JSON${when}`, `${baselines[0].url}${searchPath}`, {});
    const stack = await fullStack('API key: searchPrivateEvidence', keyHeaders);
    const demoStack = await fullStack('X-Demo-User: searchPrivateEvidence', headers);
    const bareExpress = await bareExpressPhase();
    const bareHttp = await phase('bare node:http, same JSON', `${baselines[1].url}${searchPath}`, {});
    const rarePairs = await fullStack(
      'API key, a distinct rare-word pair every request',
      keyHeaders,
      classRequests(searchPath, 'rare pair'),
    );
    const commonPairs = await fullStack(
      'API key, a distinct common word and another every request',
      keyHeaders,
      classRequests(searchPath, 'common pair'),
    );
    const common = await fullStack('API key, a common-word query every request', keyHeaders, commonWordQueryRequests(searchPath));
    const cycle = await fullStack('API key, a cycle of 1,500 saved searches', keyHeaders, savedSearchCycleRequests(searchPath));

    // As docker compose runs it: the gateway and each service in a process of its own, over HTTP.
    let devShape: Figures | undefined;
    const devDistinct: Figures[] = [];
    if (process.env.BENCH_DEV_SHAPE !== '0') {
      await mkdir(join(runDir, 'dev-shape'));
      const stack = await startDevShapeStack('bench-search-dev', join(runDir, 'dev-shape'));
      devStack = stack;
      const devApi = apiClient(stack.gateway.url, headers);
      const devSearch = await seed(devApi);
      const devKey = await apiKeyHeaders(devApi);
      devShape = await phase(
        'separate processes (docker compose shape), API key: searchPrivateEvidence',
        `${stack.gateway.url}${devSearch.searchPath}`,
        devKey,
        { stack },
      );
      await bareExpressPhase(' (after the separate processes)');
      for (const queryClass of ['rare pair', 'common pair'] as const) {
        devDistinct.push(
          await phase(
            `separate processes, API key, a distinct ${queryClass === 'rare pair' ? 'rare-word pair' : 'common word and another'} every request`,
            `${stack.gateway.url}${devSearch.searchPath}`,
            devKey,
            { stack, requests: classRequests(devSearch.searchPath, queryClass) },
          ),
        );
      }
    }

    // One caller at a time, on the `npm start` stack: the latency of each class of distinct query.
    const repeated = await singleCallerLatency(`${gateway.url}${searchPath}`, keyHeaders);
    const latencies = [repeated];
    for (const queryClass of Object.keys(queryClasses) as QueryClass[])
      latencies.push(await singleCallerLatency(`${gateway.url}${searchPath}`, keyHeaders, queryClass));

    if (before && beforeApi && beforeSearch) {
      const beforeKey = await apiKeyHeaders(beforeApi);
      await phase('before ADR 0039, API key: searchPrivateEvidence', `${before.url}${beforeSearch.searchPath}`, beforeKey, {
        gateway: before,
      });
      // The bare route once more, right after, so each stack run has its baseline next to it.
      await bareExpressPhase(' (again)');
    }
    console.log(
      `\nbench/search — ${process.env.BENCH_CODE === 'source' ? 'TypeScript through tsx' : 'bundles (npm run build)'}, ${itemCount} evidence items, ${connections} connections, ${seconds} s each, ${sample.body.results.length} results (${Buffer.byteLength(sample.text)} bytes) per response`,
    );
    console.log(`seeding + indexing took ${seedSeconds.toFixed(1)} s\n`);
    console.log(
      '| target | req/s | p50 ms | p99 ms | failures | gateway RSS MB | max event-loop delay ms | gateway CPU µs per request | event loop waiting for a core |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    const percent = (share: number | undefined) => (share === undefined ? '–' : `${(100 * share).toFixed(0)} %`);
    for (const f of figures)
      console.log(
        `| ${f.name} | ${f.requestsPerSecond.toFixed(0)} | ${f.p50} | ${f.p99} | ${f.failures} | ${f.process?.rssMb.toFixed(0) ?? '–'} | ${f.process?.maxEventLoopDelayMs.toFixed(1) ?? '–'} | ${f.process?.cpuMicrosPerRequest.toFixed(0) ?? '–'} | ${percent(f.process?.waitingShare)} |`,
      );
    console.log(
      `\nfull stack (API key) / bare Express: ${(stack.requestsPerSecond / bareExpress.requestsPerSecond).toFixed(2)} (goal ≥ 0.5); p99 ${stack.p99} ms against ${bareExpress.p99} ms: ${(stack.p99 / bareExpress.p99).toFixed(2)} × (goal ≤ 2)`,
    );
    for (const [phase, goal] of [
      [rarePairs, 1_600],
      [commonPairs, 3_400],
    ] as const)
      console.log(
        `${phase.name}: ${phase.requestsPerSecond.toFixed(0)} req/s (issue 40's goal ≥ ${goal.toLocaleString('en')}), p99 ${phase.p99} ms (goal ≤ 60); ${(phase.requestsPerSecond / stack.requestsPerSecond).toFixed(2)} × the repeated query, ${(phase.requestsPerSecond / bareExpress.requestsPerSecond).toFixed(2)} × bare Express`,
      );
    console.log(
      `full stack (API key), a common-word query every request / bare Express: ${(common.requestsPerSecond / bareExpress.requestsPerSecond).toFixed(2)} (goal ≥ 0.15; p99 ${common.p99} ms; 4 of the ${commonWords.length} most frequent words after the first, together in ${(100 * commonWordCoverage()).toFixed(0)} % of the chunks)`,
    );
    console.log(
      `full stack (API key), a cycle of 1,500 saved searches / bare Express: ${(cycle.requestsPerSecond / bareExpress.requestsPerSecond).toFixed(2)} (p99 ${cycle.p99} ms)`,
    );
    if (devShape) {
      const bareAfter = required(figures[figures.indexOf(devShape) + 1], 'the bare Express run after the separate processes');
      console.log(
        `separate processes (API key) / bare Express (run right after it): ${(devShape.requestsPerSecond / bareAfter.requestsPerSecond).toFixed(2)} (goal ≥ 0.35); p99 ${devShape.p99} ms`,
      );
      /** Each process of the separate-process stack during a phase of it. */
      const perProcess = (phase: Figures) =>
        `  under that load, per process: ${required(phase.stack, 'the separate processes measured')
          .map(
            (p) =>
              `${p.name} ${p.rssMb.toFixed(0)} MB, max event-loop delay ${p.maxEventLoopDelayMs.toFixed(1)} ms, ${p.cpuMicrosPerRequest.toFixed(0)} µs CPU per request, event loop waiting for a core ${percent(p.waitingShare)}`,
          )
          .join('; ')}`;
      console.log(perProcess(devShape));
      devDistinct.forEach((phase, i) => {
        const inOneProcess = required([rarePairs, commonPairs][i], `the npm start phase beside ${phase.name}`);
        console.log(
          `${phase.name}: ${phase.requestsPerSecond.toFixed(0)} req/s, ${(phase.requestsPerSecond / inOneProcess.requestsPerSecond).toFixed(2)} × npm start's (goal ≥ 0.6); p99 ${phase.p99} ms`,
        );
        console.log(perProcess(phase));
      });
    }
    if (before) {
      const [beforeStack, bareAgain] = figures.slice(-2) as [Figures, Figures];
      console.log(
        `before ADR 0039 (API key) / bare Express (run right after it): ${(beforeStack.requestsPerSecond / bareAgain.requestsPerSecond).toFixed(2)}; p99 ${(beforeStack.p99 / bareAgain.p99).toFixed(2)} ×`,
      );
    }
    console.log(`full stack (X-Demo-User) / bare Express: ${(demoStack.requestsPerSecond / bareExpress.requestsPerSecond).toFixed(2)}`);
    // Goal 3 over every phase of this gateway, not only the cached ones.
    const phases = [stack, demoStack, rarePairs, commonPairs, common, cycle];
    const gatewayOf = (f: Figures) => required(f.process, `the gateway's figures of ${f.name}`);
    console.log(
      `gateway RSS under load, its highest over the six phases: ${Math.max(...phases.map((f) => gatewayOf(f).rssMb)).toFixed(0)} MB (goal < 200); max event-loop delay ${Math.max(...phases.map((f) => gatewayOf(f).maxEventLoopDelayMs)).toFixed(1)} ms (goal ≤ 50)`,
    );
    console.log(`\none caller, ${latencyQueries} distinct queries of each class (bench/support/query-classes.ts), after 50 to warm up:`);
    console.log('| query | p50 ms | p90 ms | p99 ms |');
    console.log('|---|---:|---:|---:|');
    const ms = (value: number) => value.toFixed(2);
    for (const row of latencies) console.log(`| ${row.name} | ${ms(row.p50)} | ${ms(row.p90)} | ${ms(row.p99)} |`);
    const slowest = latencies.slice(1).reduce((worst, row) => (row.p90 > worst.p90 ? row : worst));
    console.log(
      `slowest class at p90: ${slowest.name}, ${ms(slowest.p90)} ms (issue 40's goal ≤ 5 ms at 10k chunks; the repeated query's p90 ${ms(repeated.p90)} ms)`,
    );
    console.log(`full stack / bare node:http: ${(stack.requestsPerSecond / bareHttp.requestsPerSecond).toFixed(2)}`);
    console.log(`bare Express / bare node:http: ${(bareExpress.requestsPerSecond / bareHttp.requestsPerSecond).toFixed(2)}`);
  } finally {
    await Promise.all([...processes.map((running) => running.stop()), devStack?.stop()]);
    await rm(runDir, { recursive: true, force: true });
  }
}

await main();
