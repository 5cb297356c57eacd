// bench/search: throughput and latency of metered searchPrivateEvidence through the full stack (one
// process, as `npm start` runs it: gateway + services in-process, embedded store, NATS JetStream
// when reachable; and as docker compose runs it, each service its own process) at 64 connections, authenticated as an external consumer is (an API key) and as
// a demo user, beside a bare Express 5 route and a bare node:http server answering the same JSON,
// all in one run so the ratios hold on a noisy machine. The same query asked again is answered from
// research's result cache; a phase of distinct queries (a new word pair every request) shows the
// search engine's own cost. For each full-stack phase it prints the
// gateway process's RSS and its worst event-loop delay (`monitorEventLoopDelay`, read from the
// process at /ops/process). Not a test: it prints figures (issue 15 goals 1 and 3).
// Env: BENCH_SECONDS (10), BENCH_CONNECTIONS (64), BENCH_ITEMS (10000);
// BENCH_DEV_SHAPE=0 leaves out the stack as docker compose runs it (each service its own process,
// called over HTTP), measured by default with each process's RSS and event-loop delay;
// BENCH_CODE=source runs both stacks' TypeScript through tsx instead of their bundles (ADR 0043);
// BENCH_BEFORE=1 adds a second gateway configured as before ADR 0039, measured in the same run;
// BENCH_CREDIT_LEASE_CREDITS sets the gateway's CREDIT_LEASE_CREDITS (0: a billing reservation per request, as before ADR 0039),
// BENCH_RATE_LIMIT_SYNC_INTERVAL_MS its RATE_LIMIT_SYNC_INTERVAL_MS (0: a NATS KV round trip per hit);
// VRS_CPU_PROF_DIR writes a `--cpu-prof` profile of every process it starts there; BENCH_NODE_ARGS
// adds Node flags (space-separated) to the `npm start`-shape gateway, e.g. `--trace-gc`.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startProcess, type RunningProcess } from '@vrs/testing/processes';
import { processFiguresOf, startBenchGateway } from '../support/bench-gateway';
import { stackFigures, startDevShapeStack, type DevShapeStack } from '../support/dev-stack';
import { apiClient, eventually } from '@vrs/testing/api-client';
import { sentence, vocabulary } from '../support/transcript-corpus';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
const itemCount = Number(process.env.BENCH_ITEMS ?? 10_000);

// The default query pairs two mid-frequency words of the corpus, as a researcher's query would;
// `BENCH_QUERY` overrides it.
const query = process.env.BENCH_QUERY ?? `${vocabulary[150]} ${vocabulary[400]}`;

/** A new mid-frequency word pair for every request: more distinct queries than any result cache keeps. */
function distinctQueryRequests(searchPath: string): autocannon.Request[] {
  const base = searchPath.slice(0, searchPath.indexOf('?q='));
  let n = 0;
  return [
    {
      setupRequest: (request) => {
        n++;
        const pair = `${vocabulary[100 + (n % 500)]} ${vocabulary[100 + ((n * 7919) % 1500)]}`;
        return { ...request, path: `${base}?q=${encodeURIComponent(pair)}` };
      },
    },
  ];
}

interface Figures {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  failures: number;
  /** The gateway process during the measured run (none for the bare baselines). */
  process?: { rssMb: number; maxEventLoopDelayMs: number };
}

async function measure(
  name: string,
  url: string,
  headers: Record<string, string>,
  gatewayUrl?: string,
  requests?: autocannon.Request[],
): Promise<Figures> {
  await autocannon({ url, connections, duration: 2, headers, requests }); // warm-up
  if (gatewayUrl) await processFiguresOf(gatewayUrl);
  const result = await autocannon({ url, connections, duration: seconds, headers, requests });
  const figures = gatewayUrl ? await processFiguresOf(gatewayUrl) : undefined;
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.errors + result.non2xx,
    process: figures && { rssMb: figures.rssBytes / 1024 / 1024, maxEventLoopDelayMs: figures.eventLoopDelayMs.max },
  };
}

/** Seeds a project of the demo account with the corpus and waits until search finds all of it. */
async function seed(api: ReturnType<typeof apiClient>) {
  const { body: project } = await api('POST', '/v1/projects', { json: { name: 'bench' } });
  for (let offset = 0; offset < itemCount; offset += 100) {
    const items = Array.from({ length: Math.min(100, itemCount - offset) }, (_, i) => ({
      text: `${sentence(offset + i)} marker${offset + i}`,
      sourceKey: `bench:${offset + i}`,
    }));
    const response = await api('POST', `/v1/projects/${project.id}/evidence`, { json: { items } });
    if (response.status !== 200) throw new Error(`seeding failed: ${response.status} ${response.text}`);
  }
  const searchPath = `/v1/projects/${project.id}/search?q=${encodeURIComponent(query)}`;
  const sample = await eventually(
    async () => {
      // Events are indexed in order: once the last item is found, the corpus is complete.
      const last = await api('GET', `/v1/projects/${project.id}/search?q=marker${itemCount - 1}`);
      if (last.body.results?.[0]?.sourceKey !== `bench:${itemCount - 1}`) return undefined;
      return api('GET', searchPath);
    },
    { timeoutMs: 300_000, what: 'the seeded evidence to be indexed' },
  );
  return { searchPath, sample };
}

/** An API key of the demo account, made through the public API: an external consumer's credential. */
async function apiKeyHeaders(api: ReturnType<typeof apiClient>) {
  const { body: apiKey } = await api('POST', '/v1/api-keys', { json: { name: 'bench', scopes: ['data:read', 'account:access'] } });
  if (!apiKey.key) throw new Error(`no API key: ${JSON.stringify(apiKey)}`);
  return { authorization: `Bearer ${apiKey.key}` };
}

async function main() {
  const runDir = await mkdtemp(join(tmpdir(), 'vrs-bench-'));
  const processes: RunningProcess[] = [];
  let devStack: DevShapeStack | undefined;
  try {
    const gateway = await startBenchGateway(
      'bench-search',
      runDir,
      {
        RATE_LIMIT_STORE: process.env.BENCH_RATE_LIMIT_STORE ?? 'nats',
        ...(process.env.BENCH_CREDIT_LEASE_CREDITS ? { CREDIT_LEASE_CREDITS: process.env.BENCH_CREDIT_LEASE_CREDITS } : {}),
        ...(process.env.BENCH_RATE_LIMIT_SYNC_INTERVAL_MS
          ? { RATE_LIMIT_SYNC_INTERVAL_MS: process.env.BENCH_RATE_LIMIT_SYNC_INTERVAL_MS }
          : {}),
      },
      process.env.BENCH_NODE_ARGS ? { nodeArgs: process.env.BENCH_NODE_ARGS.split(' ') } : {},
    );
    processes.push(gateway);
    const headers = { 'x-demo-user': 'bench' };
    const api = apiClient(gateway.url, headers);
    const seedStarted = performance.now();
    const { searchPath, sample } = await seed(api);
    // BENCH_BEFORE=1: a second gateway as before ADR 0039 (a reservation per request, a NATS KV
    // round trip per rate-limit hit), on its own data, measured in the same run.
    if (process.env.BENCH_BEFORE) await mkdir(join(runDir, 'before'));
    const before = process.env.BENCH_BEFORE
      ? await startBenchGateway('bench-search-before', join(runDir, 'before'), {
          RATE_LIMIT_STORE: 'nats',
          CREDIT_LEASE_CREDITS: '0',
          RATE_LIMIT_SYNC_INTERVAL_MS: '0',
        })
      : undefined;
    if (before) processes.push(before);
    const beforeApi = before && apiClient(before.url, headers);
    const beforeSearch = beforeApi && (await seed(beforeApi));
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    const bodyFile = join(runDir, 'body.json');
    await writeFile(bodyFile, JSON.stringify(sample.body));
    const baselines = await Promise.all(
      (['express', 'http'] as const).map((kind) =>
        startProcess({
          name: `baseline-${kind}`,
          entry: 'bench/search/baseline-server.ts',
          env: { BASELINE_KIND: kind, BASELINE_BODY: bodyFile },
          logDir: runDir,
          readyMessage: 'baseline listening',
        }),
      ),
    );
    processes.push(...baselines);

    const keyHeaders = await apiKeyHeaders(api);

    const figures: Figures[] = [];
    figures.push(await measure('full stack, API key: searchPrivateEvidence', `${gateway.url}${searchPath}`, keyHeaders, gateway.url));
    figures.push(await measure('full stack, X-Demo-User: searchPrivateEvidence', `${gateway.url}${searchPath}`, headers, gateway.url));
    figures.push(await measure('bare Express 5 route, same JSON', `${baselines[0]!.url}${searchPath}`, {}));
    figures.push(await measure('bare node:http, same JSON', `${baselines[1]!.url}${searchPath}`, {}));
    const distinct = await measure(
      'full stack, API key, a distinct query every request',
      `${gateway.url}${searchPath}`,
      keyHeaders,
      gateway.url,
      distinctQueryRequests(searchPath),
    );
    figures.push(distinct);

    // As docker compose runs it: the gateway and each service in a process of its own, over HTTP.
    let devShape: { figures: Figures; processes: Awaited<ReturnType<typeof stackFigures>> } | undefined;
    if (process.env.BENCH_DEV_SHAPE !== '0') {
      await mkdir(join(runDir, 'dev-shape'));
      const stack = await startDevShapeStack('bench-search-dev', join(runDir, 'dev-shape'));
      devStack = stack;
      const devApi = apiClient(stack.gateway.url, headers);
      const devSearch = await seed(devApi);
      const devKey = await apiKeyHeaders(devApi);
      await stackFigures(stack);
      const devFigures = await measure(
        'separate processes (docker compose shape), API key: searchPrivateEvidence',
        `${stack.gateway.url}${devSearch.searchPath}`,
        devKey,
      );
      devShape = { figures: devFigures, processes: await stackFigures(stack) };
      devFigures.process = {
        rssMb: devShape.processes.at(-1)!.rssMb,
        maxEventLoopDelayMs: devShape.processes.at(-1)!.maxEventLoopDelayMs,
      };
      figures.push(devFigures);
      figures.push(
        await measure('bare Express 5 route, same JSON (after the separate processes)', `${baselines[0]!.url}${searchPath}`, {}),
      );
    }

    const [stack, demoStack, bareExpress, bareHttp] = figures as [Figures, Figures, Figures, Figures];
    if (before && beforeApi && beforeSearch) {
      const beforeKey = await apiKeyHeaders(beforeApi);
      figures.push(
        await measure('before ADR 0039, API key: searchPrivateEvidence', `${before.url}${beforeSearch.searchPath}`, beforeKey, before.url),
      );
      // The bare route once more, right after, so each stack run has its baseline next to it.
      figures.push(await measure('bare Express 5 route, same JSON (again)', `${baselines[0]!.url}${searchPath}`, {}));
    }
    console.log(
      `\nbench/search — ${process.env.BENCH_CODE === 'source' ? 'TypeScript through tsx' : 'bundles (npm run build)'}, ${itemCount} evidence items, ${connections} connections, ${seconds} s each, ${sample.body.results.length} results (${Buffer.byteLength(sample.text)} bytes) per response`,
    );
    console.log(`seeding + indexing took ${seedSeconds.toFixed(1)} s\n`);
    console.log('| target | req/s | p50 ms | p99 ms | failures | gateway RSS MB | max event-loop delay ms |');
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    for (const f of figures)
      console.log(
        `| ${f.name} | ${f.requestsPerSecond.toFixed(0)} | ${f.p50} | ${f.p99} | ${f.failures} | ${f.process?.rssMb.toFixed(0) ?? '–'} | ${f.process?.maxEventLoopDelayMs.toFixed(1) ?? '–'} |`,
      );
    console.log(
      `\nfull stack (API key) / bare Express: ${(stack.requestsPerSecond / bareExpress.requestsPerSecond).toFixed(2)} (goal ≥ 0.5); p99 ${stack.p99} ms against ${bareExpress.p99} ms: ${(stack.p99 / bareExpress.p99).toFixed(2)} × (goal ≤ 2)`,
    );
    console.log(
      `full stack (API key), a distinct query every request / bare Express: ${(distinct.requestsPerSecond / bareExpress.requestsPerSecond).toFixed(2)} (p99 ${distinct.p99} ms)`,
    );
    if (devShape) {
      const bareAfter = figures[figures.indexOf(devShape.figures) + 1]!;
      console.log(
        `separate processes (API key) / bare Express (run right after it): ${(devShape.figures.requestsPerSecond / bareAfter.requestsPerSecond).toFixed(2)} (goal ≥ 0.35); p99 ${devShape.figures.p99} ms`,
      );
      console.log(
        `  under that load, per process: ${devShape.processes.map((p) => `${p.name} ${p.rssMb.toFixed(0)} MB, max event-loop delay ${p.maxEventLoopDelayMs.toFixed(1)} ms`).join('; ')}`,
      );
    }
    if (before) {
      const [beforeStack, bareAgain] = figures.slice(-2) as [Figures, Figures];
      console.log(
        `before ADR 0039 (API key) / bare Express (run right after it): ${(beforeStack.requestsPerSecond / bareAgain.requestsPerSecond).toFixed(2)}; p99 ${(beforeStack.p99 / bareAgain.p99).toFixed(2)} ×`,
      );
    }
    console.log(`full stack (X-Demo-User) / bare Express: ${(demoStack.requestsPerSecond / bareExpress.requestsPerSecond).toFixed(2)}`);
    console.log(
      `gateway RSS under load: ${Math.max(stack.process!.rssMb, demoStack.process!.rssMb).toFixed(0)} MB (goal < 200); max event-loop delay ${Math.max(stack.process!.maxEventLoopDelayMs, demoStack.process!.maxEventLoopDelayMs).toFixed(1)} ms (goal ≤ 50)`,
    );
    console.log(`full stack / bare node:http: ${(stack.requestsPerSecond / bareHttp.requestsPerSecond).toFixed(2)}`);
    console.log(`bare Express / bare node:http: ${(bareExpress.requestsPerSecond / bareHttp.requestsPerSecond).toFixed(2)}`);
  } finally {
    await Promise.all([...processes.map((running) => running.stop()), devStack?.stop()]);
    await rm(runDir, { recursive: true, force: true });
  }
}

await main();
