// bench/comments: time to collect 1,000 newest-first comments through the full stack (one process)
// while the fake YouTube upstream adds 50 ms to every request, beside the sum of that latency over
// the pages fetched (the floor: each page names the next) and the fake's own answer time, which a
// real upstream's latency includes and our side does not spend; with the gateway's CPU time, which
// follows a loaded machine far less than elapsed time does (ADR 0038), and a table of our side's time
// between the exchanges. Not a test: it prints figures.
// Env: BENCH_COMMENTS (1000), BENCH_LATENCY_MS (50), BENCH_RUNS (5).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eventLoopVerdict } from '../support/bench-gateway';
import { measuredWindow } from '../support/profile-window';
import { loadAverages, median } from '../support/figures';
import { timeUpstreamRun, withUpstreamGateway, type RunFigures } from '../support/upstream-bench';
import { apiClient } from '@vrs/testing/api-client';
import { hasRecorded, projectDir, recordedDir } from '@vrs/testing/upstreams/youtube/fixture-dirs';

const target = Number(process.env.BENCH_COMMENTS ?? 1000);
const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 50);
const runs = Number(process.env.BENCH_RUNS ?? 5);
const videoId = 'xaQJbozY_Is';

// Raw InnerTube JSON, walked by hand, as in the fixture generator.
type Json = Record<string, any>;

/**
 * Nobody recorded 1,000 newest-first comments, so the authored newest pages of xaQJbozY_Is are
 * extended into a chain: from the token the authored first page carries, every page holds the 20
 * recorded threads again and the continuation to the next one, until the target is reachable.
 * Pages repeat comments; for timing only the number and size of pages matter.
 */
async function writeChainedPages(dir: string): Promise<number> {
  const authored = JSON.parse(await readFile(join(projectDir, 'comments', `${videoId}.newest.json`), 'utf8')) as Json;
  const [first, second] = authored.exchanges as [Json, Json];
  const firstItems = first.response.body.onResponseReceivedEndpoints[1].reloadContinuationItemsCommand.continuationItems as Json[];
  const threads = [
    ...firstItems.filter((item) => item.commentThreadRenderer),
    ...(second.response.body.onResponseReceivedEndpoints[0].appendContinuationItemsAction.continuationItems as Json[]),
  ];
  const continuationItem = firstItems.find((item) => item.continuationItemRenderer) as Json;
  const firstToken = continuationItem.continuationItemRenderer.continuationEndpoint.continuationCommand.token as string;
  const pageCount = Math.ceil((target - (firstItems.length - 1)) / threads.length);
  const token = (page: number) => (page === 0 ? firstToken : `bench:${videoId}:newest:${page}`);
  const exchanges = Array.from({ length: pageCount }, (_, page) => {
    const next = structuredClone(continuationItem);
    next.continuationItemRenderer.continuationEndpoint.continuationCommand.token = token(page + 1);
    const items = page + 1 < pageCount ? [...threads, next] : threads;
    return {
      request: {
        method: 'POST',
        url: 'https://www.youtube.com/youtubei/v1/next?prettyPrint=false',
        clientName: 'WEB',
        body: { continuation: token(page) },
      },
      // Later than the authored page answering the same first token, so the chain wins.
      response: {
        status: 200,
        recordedAt: '2099-01-01T00:00:00Z',
        body: {
          responseContext: first.response.body.responseContext,
          onResponseReceivedEndpoints: [{ appendContinuationItemsAction: { continuationItems: items, targetId: 'comments-section' } }],
          frameworkUpdates: first.response.body.frameworkUpdates,
        },
      },
    };
  });
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'newest-chain.json'),
    JSON.stringify({ format: 'vrs-youtube-exchanges', note: 'bench/comments: generated chain', exchanges }),
  );
  return pageCount;
}

type CriticalPathLinks = ReturnType<typeof criticalPathLinks>;

/**
 * Where our side spends the collection's critical path: each page names the next, so every upstream
 * request waits for the answer before it, and the time from that answer to the next request's
 * arrival is ours (the gateway's work and the loopback). Clock: this process's, as the fake's.
 */
function criticalPathLinks(exchanges: { receivedAt: number; answeredAt?: number }[], started: number, ended: number) {
  const [first, ...rest] = [...exchanges].sort((a, b) => a.receivedAt - b.receivedAt);
  if (first === undefined) throw new Error('the collection made no upstream request');
  const between: number[] = [];
  let previous = first;
  for (const exchange of rest) {
    between.push(exchange.receivedAt - (previous.answeredAt ?? Number.NaN));
    previous = exchange;
  }
  return {
    beforeFirst: first.receivedAt - started,
    betweenMedian: median(between),
    betweenSum: between.reduce((sum, gap) => sum + gap, 0),
    afterLast: ended - (previous.answeredAt ?? Number.NaN),
  };
}

async function main() {
  if (!hasRecorded) {
    console.log(`bench/comments needs the recorded comments of ${videoId} in ${recordedDir}; it is absent.`);
    return;
  }
  let chainPages = 0;
  const replayDirs = async (runDir: string) => {
    const chainDir = join(runDir, 'chain');
    chainPages = await writeChainedPages(chainDir);
    return [recordedDir, projectDir, chainDir];
  };
  await withUpstreamGateway('bench-comments', replayDirs, {}, async (gateway, fake) => {
    const api = apiClient(gateway.url, { 'x-demo-user': 'bench' });
    const path = `/v1/providers/youtube/videos/${videoId}/comments?newest=true&limit=${target}&refresh=true`;
    const warmup = await api('GET', path);
    if (warmup.status !== 200) throw new Error(`collection failed: ${warmup.status} ${warmup.text}`);

    fake.setLatency(latencyMs);
    const rows: (RunFigures & { requests: number; upstreamMs: number; pages: number; comments: number; links: CriticalPathLinks })[] = [];
    await measuredWindow(async () => {
      for (let run = 0; run < runs; run++) {
        const { result: response, started, ended, ...figures } = await timeUpstreamRun(gateway, fake, latencyMs, () => api('GET', path));
        if (response.status !== 200) throw new Error(`collection failed: ${response.status} ${response.text}`);
        const { comments, pagesFetched } = response.body as { comments: unknown[]; pagesFetched: number };
        const exchanges = fake.exchanges();
        const upstreamMs = exchanges.reduce((sum, exchange) => sum + (exchange.answeredAt ?? Number.NaN) - exchange.receivedAt, 0);
        rows.push({
          ...figures,
          requests: fake.hits().total,
          upstreamMs,
          pages: pagesFetched,
          comments: comments.length,
          links: criticalPathLinks(exchanges, started, ended),
        });
      }
    });

    console.log(
      `\nbench/comments — newest-first collection of ${target} comments of ${videoId}, ${latencyMs} ms added to every upstream request, ${runs} runs`,
    );
    console.log(`(the recorded newest pages extended by a chain of ${chainPages} pages repeating the recorded threads)`);
    console.log(`load average at the end: ${loadAverages(', ')}\n`);
    console.log(
      '| run | comments | comment pages | upstream requests | elapsed ms | gateway CPU ms | latency sum ms | elapsed / latency sum | upstream answer time ms | elapsed / upstream answer time |',
    );
    console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    rows.forEach((row, run) => {
      const latencySum = row.requests * latencyMs;
      console.log(
        `| ${run + 1} | ${row.comments} | ${row.pages} | ${row.requests} | ${row.elapsedMs.toFixed(0)} | ${row.cpuMs ?? 'n/a'} | ${latencySum} | ${(row.elapsedMs / latencySum).toFixed(2)} | ${row.upstreamMs.toFixed(0)} | ${(row.elapsedMs / row.upstreamMs).toFixed(3)} |`,
      );
    });
    console.log(
      '\nOur time on the critical path, between the upstream exchanges (ms): request → first upstream request, each answer → the next request (median and sum), last answer → response read\n',
    );
    console.log(
      '| run | request → first upstream request | answer → next request, median | same, sum | last answer → response | sum of all |',
    );
    console.log('|---:|---:|---:|---:|---:|---:|');
    rows.forEach(({ links }, run) => {
      console.log(
        `| ${run + 1} | ${links.beforeFirst.toFixed(1)} | ${links.betweenMedian.toFixed(2)} | ${links.betweenSum.toFixed(1)} | ${links.afterLast.toFixed(1)} | ${(links.beforeFirst + links.betweenSum + links.afterLast).toFixed(1)} |`,
      );
    });
    const elapsed = median(rows.map((row) => row.elapsedMs));
    const latencySum = median(rows.map((row) => row.requests)) * latencyMs;
    console.log(
      `\nmedian: ${elapsed.toFixed(0)} ms for ${latencySum} ms of upstream latency — ratio ${(elapsed / latencySum).toFixed(2)}, ${((elapsed - latencySum) / median(rows.map((row) => row.requests))).toFixed(1)} ms of our own per request`,
    );
    const upstream = median(rows.map((row) => row.upstreamMs));
    console.log(
      `median upstream answer time: ${upstream.toFixed(0)} ms (the fake's own time per request above the latency: ${((upstream - latencySum) / median(rows.map((row) => row.requests))).toFixed(2)} ms) — ratio ${(elapsed / upstream).toFixed(3)}`,
    );
    console.log(eventLoopVerdict(rows.map((row) => row.worstEventLoopDelayMs)));
  });
}

await main();
