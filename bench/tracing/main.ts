// bench/tracing: what tracing at 100 % sampling costs a metered search (issue 41 goal 5, ADRs 0117 and
// 0118). Two stacks as `npm start` runs them, one untraced and one exporting every span over OTLP/HTTP
// (protobuf, the SDK's default) to a receiver in this process, each seeded alike. bench:search's
// phases run in alternating slices, the order swapped every round, so a machine whose speed swings
// between runs (docs/benchmarks.md) weighs on both sides alike; the ratio per round and its median
// are the figures. It runs two such pairs, the untraced stack started first in one and second in the
// other, since two stacks of one code differ too.
// Not a test: it prints figures.
// Env: BENCH_SECONDS (3, per slice), BENCH_ROUNDS (4 with each pair), BENCH_CONNECTIONS (64), BENCH_ITEMS (10000);
// BENCH_DEV_SHAPE=1 compares two stacks as docker compose runs them (each service its own process) instead.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { required } from '@vrs/kit';
import { apiClient } from '@vrs/testing/api-client';
import type { RunningProcess } from '@vrs/testing/processes';
import { startBenchGateway } from '../support/bench-gateway';
import { stackFigures, startDevShapeStack } from '../support/dev-stack';
import { median } from '../support/figures';
import { classRequests, commonWordQueryRequests, savedSearchCycleRequests } from '../support/search-phases';
import { apiKeyHeaders, seedSearchProject } from '../support/search-seed';
import { vocabulary } from '../support/transcript-corpus';

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const rounds = Number(process.env.BENCH_ROUNDS ?? 4);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
const itemCount = Number(process.env.BENCH_ITEMS ?? 10_000);
const devShape = process.env.BENCH_DEV_SHAPE === '1';
const query = `${vocabulary[150]} ${vocabulary[400]}`;

/** An OTLP/HTTP receiver that reads and counts what it is sent, as a collector's front would. */
async function startSpanSink(): Promise<{ url: string; bytes: () => number; server: Server }> {
  let bytes = 0;
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => (bytes += chunk.length));
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bytes: () => bytes, server };
}

interface Side {
  name: 'untraced' | 'traced';
  url: string;
  /** Every process of the stack, the gateway last. */
  processes: RunningProcess[];
  searchPath: string;
  /** An API key's. */
  headers: Record<string, string>;
}

const demoHeaders = { 'x-demo-user': 'bench' };

/** One slice of a phase on one side: req/s, and the CPU its processes spent per request. */
async function slice(side: Side, requests: autocannon.Request[] | undefined, demo = false) {
  const url = `${side.url}${side.searchPath}`;
  const headers = demo ? demoHeaders : side.headers;
  await autocannon({ url, connections, duration: 1, headers, requests }); // warm-up
  const before = await stackFigures(side.processes);
  const result = await autocannon({ url, connections, duration: seconds, headers, requests });
  const after = await stackFigures(side.processes);
  if (result.errors + result.non2xx > 0) throw new Error(`${side.name}: ${result.errors + result.non2xx} failures`);
  const cpuMicros = after.reduce((sum, figures, i) => sum + figures.cpuMicros - required(before[i], 'figures before').cpuMicros, 0);
  return { requestsPerSecond: result.requests.average, cpuMicrosPerRequest: cpuMicros / Math.max(1, result.requests.total) };
}

type SideName = Side['name'];

/** Starts and seeds one stack per side, in `order`; each side's stop is pushed to `stops`. */
async function startSides(order: readonly SideName[], runDir: string, sinkUrl: string, stops: (() => Promise<void>)[]): Promise<Side[]> {
  const sides: Side[] = [];
  for (const name of order) {
    const dir = await mkdtemp(join(runDir, `${name}-`));
    const env = name === 'traced' ? { OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl } : {};
    const stack = devShape
      ? await startDevShapeStack(`bench-tracing-${name}`, dir, env)
      : await startBenchGateway(`bench-tracing-${name}`, dir, env).then((gateway) => ({
          gateway,
          processes: [gateway],
          stop: () => gateway.stop(),
        }));
    stops.push(stack.stop);
    const api = apiClient(stack.gateway.url, demoHeaders);
    const { searchPath } = await seedSearchProject(api, itemCount, query);
    sides.push({ name, url: stack.gateway.url, processes: stack.processes, searchPath, headers: await apiKeyHeaders(api) });
  }
  return sides;
}

// bench:search's phases. Each round asks its own range of a class, so no distinct query is asked twice
// (a second ask may be cached); the saved searches come round again, as that phase means them to.
const phases: { name: string; demo?: boolean; requests: (searchPath: string, round: number) => autocannon.Request[] | undefined }[] = [
  { name: 'API key, the repeated query (result cache)', requests: () => undefined },
  { name: 'X-Demo-User, the repeated query', demo: true, requests: () => undefined },
  { name: 'a distinct rare-word pair every request', requests: (path, round) => classRequests(path, 'rare pair', round * 1_000_000) },
  { name: 'a distinct common word and another', requests: (path, round) => classRequests(path, 'common pair', round * 1_000_000) },
  { name: 'a common-word query every request', requests: (path, round) => commonWordQueryRequests(path, round * 6_000) },
  { name: 'a cycle of 1,500 saved searches', requests: (path) => savedSearchCycleRequests(path) },
];

async function main() {
  const runDir = await mkdtemp(join(tmpdir(), 'vrs-bench-tracing-'));
  const sink = await startSpanSink();
  const ratios = new Map(phases.map((phase) => [phase.name, [] as number[]]));
  console.log(
    `\nbench/tracing — ${devShape ? 'separate processes (docker compose shape)' : 'npm start shape'}, ${itemCount} chunks, ${connections} connections, ${rounds} rounds of ${seconds} s slices with each pair of stacks, each side in turn`,
  );
  console.log(
    '| started first | phase | round | untraced req/s | traced req/s | traced ÷ untraced | CPU µs per request, untraced → traced |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|');
  try {
    // Two stacks of one code differ by a few per cent, the one started second mostly ahead: each order gets
    // a pair of its own, and the medians take both, so that difference cancels out of the figures.
    for (const [pair, order] of (
      [
        ['untraced', 'traced'],
        ['traced', 'untraced'],
      ] as const
    ).entries()) {
      const stops: (() => Promise<void>)[] = [];
      try {
        const sides = await startSides(order, runDir, sink.url, stops);
        for (const phase of phases) {
          for (let round = 0; round < rounds; round++) {
            const turn = round % 2 === 0 ? sides : [...sides].reverse();
            const figures = new Map<string, Awaited<ReturnType<typeof slice>>>();
            for (const side of turn)
              figures.set(side.name, await slice(side, phase.requests(side.searchPath, pair * rounds + round), phase.demo));
            const untraced = required(figures.get('untraced'), 'the untraced slice');
            const traced = required(figures.get('traced'), 'the traced slice');
            const ratio = traced.requestsPerSecond / untraced.requestsPerSecond;
            required(ratios.get(phase.name), 'the phase').push(ratio);
            console.log(
              `| ${order[0]} | ${phase.name} | ${round + 1} | ${untraced.requestsPerSecond.toFixed(0)} | ${traced.requestsPerSecond.toFixed(0)} | ${ratio.toFixed(2)} | ${untraced.cpuMicrosPerRequest.toFixed(0)} → ${traced.cpuMicrosPerRequest.toFixed(0)} |`,
            );
          }
        }
      } finally {
        for (const stop of stops.reverse()) await stop();
      }
    }
    const verdicts = phases.map((phase) => {
      const all = required(ratios.get(phase.name), 'the phase');
      return `${phase.name}: traced ÷ untraced, median of ${all.length} rounds ${median(all).toFixed(2)} (issue 41's goal ≥ 0.8)`;
    });
    console.log(`\n${verdicts.join('\n')}\nspans received: ${(sink.bytes() / 1024 / 1024).toFixed(1)} MB of OTLP protobuf`);
  } finally {
    sink.server.close();
    await rm(runDir, { recursive: true, force: true });
  }
}

await main();
