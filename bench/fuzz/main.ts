// bench/fuzz: at least 10,000 fuzzed requests across every operation of the served OpenAPI document
// (the generators of test/e2e/openapi-fuzz.test.ts), against the whole system in one process with
// the fake YouTube upstream replaying the project's fixtures. Prints the status histogram, the 500s
// (must be 0), error bodies that are not the envelope (must be 0) and the slowest request (must be
// under 2 s), beside the latency of GET /v1/health measured in the same run. Not a test: it prints.
// Env: FUZZ_REQUESTS (10000), FUZZ_SEED (20261124), FUZZ_CONCURRENCY (8).
import fc from 'fast-check';
import { operationsOf, requestsFor, sendFuzzRequest, type FuzzRequest, type OpenApiDocument } from '@vrs/testing/openapi-fuzz';
import { projectDir } from '@vrs/testing/upstreams/youtube/fixture-dirs';
import { eventLoopVerdict, watchGatewayEventLoop } from '../support/bench-gateway';
import { percentile } from '../support/figures';
import { withUpstreamGateway } from '../support/upstream-bench';

const total = Number(process.env.FUZZ_REQUESTS ?? 10_000);
const seed = Number(process.env.FUZZ_SEED ?? 20261124);
const concurrency = Number(process.env.FUZZ_CONCURRENCY ?? 8);

async function main() {
  await withUpstreamGateway(
    'bench-fuzz',
    () => [projectDir],
    { YOUTUBE_TIMEOUT_MS: '1000', YOUTUBE_RETRIES: '0' },
    async (gateway) => {
      const document = (await (await fetch(`${gateway.url}/v1/openapi.json`)).json()) as OpenApiDocument;
      const operations = operationsOf(document);
      const perOperation = Math.ceil(total / operations.length);
      const requests: FuzzRequest[] = operations.flatMap((operation, n) =>
        fc.sample(requestsFor(operation), { seed: seed + n, numRuns: perOperation }),
      );
      // Interleaved, so every operation is exercised under the load of all the others.
      requests.sort((a, b) => ((a.target.length * 31 + a.method.length) % 97) - ((b.target.length * 31 + b.method.length) % 97));

      const histogram = new Map<number, number>();
      const problems = new Map<string, { count: number; example: string }>();
      const durations: number[] = [];
      let slowest = { durationMs: 0, request: '' };
      const queue = requests.entries();
      const worstEventLoopDelay = await watchGatewayEventLoop(gateway.url);
      const started = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          // The workers share one iterator: each request is sent once, by whichever worker is free.
          for (const [index, request] of queue) {
            const outcome = await sendFuzzRequest(gateway.url, request, { 'x-demo-user': `fuzz-${(index + 1) % 50}` });
            histogram.set(outcome.status, (histogram.get(outcome.status) ?? 0) + 1);
            durations.push(outcome.durationMs);
            if (outcome.durationMs > slowest.durationMs)
              slowest = { durationMs: outcome.durationMs, request: `${request.method} /v1${request.target.slice(0, 100)}` };
            if (outcome.problem) {
              const entry = problems.get(outcome.problem) ?? { count: 0, example: `${request.method} /v1${request.target.slice(0, 120)}` };
              entry.count++;
              problems.set(outcome.problem, entry);
            }
          }
        }),
      );
      const elapsedS = (performance.now() - started) / 1000;
      const worstEventLoopDelayMs = await worstEventLoopDelay();

      const health: number[] = [];
      for (let i = 0; i < 200; i++) {
        const t0 = performance.now();
        await (await fetch(`${gateway.url}/v1/health`)).text();
        health.push(performance.now() - t0);
      }
      durations.sort((a, b) => a - b);
      health.sort((a, b) => a - b);
      const count500 = [...histogram].filter(([status]) => status >= 500 && status !== 503).reduce((sum, [, n]) => sum + n, 0);
      const nonEnvelope = [...problems]
        .filter(([problem]) => /without a JSON body|not the error envelope/.test(problem))
        .reduce((sum, [, p]) => sum + p.count, 0);

      console.log(
        `\nbench/fuzz — ${requests.length} requests over ${operations.length} operations, seed ${seed}, ${concurrency} at a time, ${elapsedS.toFixed(1)} s\n`,
      );
      console.log('| status | requests |\n|---:|---:|');
      for (const [status, n] of [...histogram].sort(([a], [b]) => a - b)) console.log(`| ${status} | ${n} |`);
      console.log(`\n5xx other than an honest 503: ${count500}   error bodies that are not the envelope: ${nonEnvelope}`);
      console.log(
        `latency ms — fuzzed requests p50 ${percentile(durations, 0.5).toFixed(1)}, p99 ${percentile(durations, 0.99).toFixed(1)}, slowest ${slowest.durationMs.toFixed(0)} (${slowest.request}); baseline GET /v1/health in the same run p50 ${percentile(health, 0.5).toFixed(1)}, p99 ${percentile(health, 0.99).toFixed(1)}`,
      );
      for (const [problem, { count, example }] of problems) console.log(`  ${count} × ${problem} — e.g. ${example}`);
      console.log(eventLoopVerdict([worstEventLoopDelayMs]));
      if (count500 > 0 || nonEnvelope > 0 || slowest.durationMs > 2_000) process.exitCode = 1;
    },
  );
}

await main();
