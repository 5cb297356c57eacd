// bench/trends: time of one trend report (methodology 3.0, deterministic mode) through the full
// stack (one process: gateway + services in-process) while the fake YouTube upstream adds 50 ms to
// every request, beside the upstream critical path: the longest chain of dependent upstream calls
// (search page 1 → search page 2 → a video's player, WEB player and /next side by side; channel
// pages run beside the videos), and their ratio. Not a test: it prints figures. A second table splits
// each run along that chain (`chainGaps`): the time between its links is the gateway's work, and any
// wait for a CPU on a loaded machine.
// Env: BENCH_LATENCY_MS (50), BENCH_RUNS (5), BENCH_SAMPLE_SIZE (20), YOUTUBE_MAX_CONCURRENCY (provider default).
import type { TrendReport } from '@vrs/contracts';
import { eventLoopVerdict } from '../support/bench-gateway';
import { measuredWindow } from '../support/profile-window';
import { median } from '../support/figures';
import { timeUpstreamRun, withUpstreamGateway, type RunFigures } from '../support/upstream-bench';
import { apiClient } from '@vrs/testing/api-client';
import { trendsFixtureTopic } from '@vrs/testing/upstreams/youtube/author-trends-fixtures';
import { projectDir } from '@vrs/testing/upstreams/youtube/fixture-dirs';
import type { Exchange } from '@vrs/testing/upstreams/youtube/server';
import { searchParams } from '@vrs/youtube';

const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 50);
const runs = Number(process.env.BENCH_RUNS ?? 5);
const sampleSize = Number(process.env.BENCH_SAMPLE_SIZE ?? 20);

const relevanceParams = decodeURIComponent(searchParams('videos', 'relevance'));

/** The time between the links of the critical path (not upstream latency), from the fake upstream's exchanges. */
function chainGaps(exchanges: Exchange[], started: number, ended: number) {
  const find = (what: string, test: (exchange: Exchange) => boolean) => {
    const found = exchanges.filter(test);
    if (found.length === 0 || found.some((exchange) => exchange.answeredAt === undefined))
      throw new Error(`no answered ${what} in the run`);
    return found as [Required<Exchange>, ...Required<Exchange>[]];
  };
  const [firstPage] = find('first relevance page', ({ key }) => key.endpoint === 'search' && key.keys.params === relevanceParams);
  const [secondPage] = find('second relevance page', ({ key }) => key.endpoint === 'search' && key.keys.continuation !== undefined);
  const videoRequests = find('player, WEB player or /next', ({ key }) => ['reel/reel_item_watch', 'player', 'next'].includes(key.endpoint));
  const late = videoRequests.filter((request) => request.receivedAt >= secondPage.answeredAt).map((request) => request.receivedAt);
  const firstLate = late.length > 0 ? Math.min(...late) : secondPage.answeredAt;
  return {
    beforeFirstSearch: firstPage.receivedAt - started,
    betweenSearchPages: secondPage.receivedAt - firstPage.answeredAt,
    // Video requests made before page 2 was answered: the first page's sampled videos.
    earlyVideoRequests: videoRequests.length - late.length,
    beforeFirstLateVideoRequest: firstLate - secondPage.answeredAt,
    firstToLastLateVideoRequest: late.length > 0 ? Math.max(...late) - firstLate : 0,
    afterLastAnswer: ended - Math.max(...videoRequests.map((request) => request.answeredAt)),
  };
}

async function main() {
  const env = process.env.YOUTUBE_MAX_CONCURRENCY ? { YOUTUBE_MAX_CONCURRENCY: process.env.YOUTUBE_MAX_CONCURRENCY } : {};
  await withUpstreamGateway(
    'bench-trends',
    () => [projectDir],
    env,
    async (gateway, fake) => {
      const api = apiClient(gateway.url, { 'x-demo-user': 'bench' });
      const path = `/v1/providers/youtube/trends?q=${encodeURIComponent(trendsFixtureTopic)}&sampleSize=${sampleSize}&mode=deterministic`;
      const warmup = await api('GET', path);
      if (warmup.status !== 200) throw new Error(`report failed: ${warmup.status} ${warmup.text}`);

      const rows: (RunFigures & { requests: number; videos: number; gaps: ReturnType<typeof chainGaps> })[] = [];
      await measuredWindow(async () => {
        for (let run = 0; run < runs; run++) {
          const {
            result: response,
            started,
            ended,
            ...figures
          } = await timeUpstreamRun(gateway, fake, latencyMs, () => api<TrendReport>('GET', path));
          if (response.status !== 200) throw new Error(`report failed: ${response.status} ${response.text}`);
          const hits = fake.hits();
          rows.push({
            ...figures,
            requests: hits.total,
            videos: response.body.sample.enrichedVideos,
            gaps: chainGaps(fake.exchanges(), started, ended),
          });
        }
      });

      console.log(
        `\nbench/trends — trend report of "${trendsFixtureTopic}" (sampleSize ${sampleSize}, deterministic), ${latencyMs} ms added to every upstream request, ${runs} runs\n`,
      );
      console.log(
        '| run | videos enriched | upstream requests | dependent calls on the critical path | elapsed ms | gateway CPU ms | critical path ms | elapsed / critical path |',
      );
      console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
      // The sorted searches run beside the relevance ones, so the longest chain of dependent calls is
      // relevance page 1 → page 2 → a video's player ‖ WEB player ‖ /next.
      const criticalPathCalls = 3;
      const critical = criticalPathCalls * latencyMs;
      rows.forEach((row, run) => {
        console.log(
          `| ${run + 1} | ${row.videos} | ${row.requests} | ${criticalPathCalls} | ${row.elapsedMs.toFixed(0)} | ${row.cpuMs ?? 'n/a'} | ${critical} | ${(row.elapsedMs / critical).toFixed(2)} |`,
        );
      });
      console.log('\nTime between the links of the critical path, not upstream latency (ms; the rest of each run is):\n');
      console.log(
        '| run | video requests before page 2 answered | before the first search | page 1 answered → page 2 asked | page 2 answered → first video request after it | that request → last | last answer → report | sum |',
      );
      console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
      rows.forEach(({ gaps: { earlyVideoRequests, ...gaps } }, run) => {
        const parts = Object.values(gaps);
        const sum = parts.reduce((total, part) => total + part, 0);
        console.log(`| ${run + 1} | ${earlyVideoRequests} | ${parts.map((part) => part.toFixed(1)).join(' | ')} | ${sum.toFixed(1)} |`);
      });
      const elapsed = median(rows.map((row) => row.elapsedMs));
      console.log(
        `\nmedian: ${elapsed.toFixed(0)} ms against a ${critical} ms upstream critical path — ratio ${(elapsed / critical).toFixed(2)}`,
      );
      console.log(eventLoopVerdict(rows.map((row) => row.worstEventLoopDelayMs)));
    },
  );
}

await main();
