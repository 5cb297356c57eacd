// bench/search: throughput and latency of searchPrivateEvidence through the full stack (one
// process: gateway + services in-process, embedded store, NATS JetStream when reachable) at 64
// connections, beside a bare Express 5 route and a bare node:http server answering the same JSON,
// all in one run so the ratios hold on a noisy machine. Not a test: it prints figures.
// Env: BENCH_SECONDS (10), BENCH_CONNECTIONS (64), BENCH_ITEMS (10000).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startProcess, type RunningProcess } from '@vrs/testing/processes';
import { startBenchGateway } from '../support/bench-gateway';
import { apiClient, eventually } from '@vrs/testing/api-client';
import { sentence, vocabulary } from '../support/transcript-corpus';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
const itemCount = Number(process.env.BENCH_ITEMS ?? 10_000);

// The default query pairs two mid-frequency words of the corpus, as a researcher's query would;
// `BENCH_QUERY` overrides it.
const query = process.env.BENCH_QUERY ?? `${vocabulary[150]} ${vocabulary[400]}`;

interface Figures {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  failures: number;
}

async function measure(name: string, url: string, headers: Record<string, string>): Promise<Figures> {
  await autocannon({ url, connections, duration: 2, headers }); // warm-up
  const result = await autocannon({ url, connections, duration: seconds, headers });
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.errors + result.non2xx,
  };
}

async function main() {
  const runDir = await mkdtemp(join(tmpdir(), 'vrs-bench-'));
  const processes: RunningProcess[] = [];
  try {
    const gateway = await startBenchGateway('bench-search', runDir, { RATE_LIMIT_STORE: process.env.BENCH_RATE_LIMIT_STORE ?? 'nats' });
    processes.push(gateway);
    const headers = { 'x-demo-user': 'bench' };
    const api = apiClient(gateway.url, headers);

    const { body: project } = await api('POST', '/v1/projects', { json: { name: 'bench' } });
    const seedStarted = performance.now();
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
      { timeoutMs: 120_000, what: 'the seeded evidence to be indexed' },
    );
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

    const figures: Figures[] = [];
    figures.push(await measure('full stack: searchPrivateEvidence', `${gateway.url}${searchPath}`, headers));
    figures.push(await measure('bare Express 5 route, same JSON', `${baselines[0]!.url}${searchPath}`, {}));
    figures.push(await measure('bare node:http, same JSON', `${baselines[1]!.url}${searchPath}`, {}));

    const [stack, bareExpress, bareHttp] = figures as [Figures, Figures, Figures];
    console.log(
      `\nbench/search — ${itemCount} evidence items, ${connections} connections, ${seconds} s each, ${sample.body.results.length} results (${Buffer.byteLength(sample.text)} bytes) per response`,
    );
    console.log(`seeding + indexing took ${seedSeconds.toFixed(1)} s\n`);
    console.log('| target | req/s | p50 ms | p99 ms | failures |');
    console.log('|---|---:|---:|---:|---:|');
    for (const f of figures) console.log(`| ${f.name} | ${f.requestsPerSecond.toFixed(0)} | ${f.p50} | ${f.p99} | ${f.failures} |`);
    console.log(`\nfull stack / bare Express: ${(stack.requestsPerSecond / bareExpress.requestsPerSecond).toFixed(2)}`);
    console.log(`full stack / bare node:http: ${(stack.requestsPerSecond / bareHttp.requestsPerSecond).toFixed(2)}`);
    console.log(`bare Express / bare node:http: ${(bareExpress.requestsPerSecond / bareHttp.requestsPerSecond).toFixed(2)}`);
  } finally {
    await Promise.all(processes.map((running) => running.stop()));
    await rm(runDir, { recursive: true, force: true });
  }
}

await main();
