// bench/imports: time of one project import of 50 videos (metadata + transcript) through the whole
// system in one process, from the 202 to the job's completion, while the fake YouTube upstream adds
// 50 ms to every request, beside the upstream time ÷ the import concurrency and, since a video's
// metadata reads go out together (ADR 0045), the floor of its dependent calls (those reads, then its
// caption track, one video after another per lane). Each run imports videos never read before, so
// every read reaches the upstream. Not a test: it prints figures.
// Env: BENCH_VIDEOS (50), BENCH_LATENCY_MS (50), BENCH_RUNS (3), RESEARCH_IMPORT_VIDEO_CONCURRENCY (the service default).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultResearchImports } from '@vrs/research/config';
import { apiClient } from '@vrs/testing/api-client';
import { projectDir } from '@vrs/testing/upstreams/youtube/fixture-dirs';
import { eventLoopVerdict } from '../support/bench-gateway';
import { measuredWindow } from '../support/profile-window';
import { median } from '../support/figures';
import { timeUpstreamRun, withUpstreamGateway, type RunFigures } from '../support/upstream-bench';

const videoCount = Number(process.env.BENCH_VIDEOS ?? 50);
const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 50);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const videoConcurrency = Number(process.env.RESEARCH_IMPORT_VIDEO_CONCURRENCY ?? defaultResearchImports.videosAtOnce);
const authoredId = 'vrsFixture1';

/** Eleven characters, as a video id has: `vrsBn` + run + video number. */
const benchVideoId = (run: number, n: number) => `vrsBn${String(run).padStart(2, '0')}${String(n).padStart(4, '0')}`;

/**
 * The authored fixture video (player, WEB player, /next, captions) copied under one id per video and
 * run: each import then reads distinct videos, and the provider has none of them saved.
 */
async function writeVideoCopies(dir: string): Promise<void> {
  const authored = await readFile(join(projectDir, 'video', `${authoredId}.json`), 'utf8');
  await mkdir(dir, { recursive: true });
  for (let run = 0; run <= runs; run++) {
    const exchanges = Array.from(
      { length: videoCount },
      (_, n) => (JSON.parse(authored.replaceAll(authoredId, benchVideoId(run, n))) as { exchanges: unknown[] }).exchanges,
    ).flat();
    await writeFile(
      join(dir, `run-${run}.json`),
      JSON.stringify({ format: 'vrs-youtube-exchanges', note: `bench/imports: copies of ${authoredId}`, exchanges }),
    );
  }
}

interface Job {
  id: string;
  status: string;
  progress: { done: number; total: number };
  videos: { status: string }[];
}

async function main() {
  const replayDirs = async (runDir: string) => {
    const copiesDir = join(runDir, 'videos');
    await writeVideoCopies(copiesDir);
    return [projectDir, copiesDir];
  };
  const env = { RESEARCH_IMPORT_VIDEO_CONCURRENCY: String(videoConcurrency) };
  await withUpstreamGateway('bench-imports', replayDirs, env, async (gateway, fake) => {
    const api = apiClient(gateway.url, { 'x-demo-user': 'bench' });
    const importRun = async (run: number) => {
      const project = await api('POST', '/v1/projects', { json: { name: `imports ${run}` } });
      if (project.status !== 200) throw new Error(`project not created: ${project.status} ${project.text}`);
      const ids = Array.from({ length: videoCount }, (_, n) => benchVideoId(run, n));
      const started = performance.now();
      const created = await api('POST', `/v1/projects/${project.body.id}/imports`, { json: { source: { type: 'videos', ids } } });
      if (created.status !== 202) throw new Error(`import not accepted: ${created.status} ${created.text}`);
      let job = created.body as Job;
      while (job.status === 'pending' || job.status === 'running') {
        await new Promise((resolve) => setTimeout(resolve, 10));
        job = (await api<Job>('GET', `/v1/jobs/${job.id}`)).body;
      }
      const elapsedMs = performance.now() - started;
      const imported = job.videos.filter((video) => video.status === 'imported').length;
      if (job.status !== 'completed' || imported !== videoCount) throw new Error(`import ended ${job.status}: ${JSON.stringify(job)}`);
      return elapsedMs;
    };
    // Run 0 warms the system up (module loading, first connections) and is not reported.
    await importRun(0);

    const rows: (RunFigures & { requests: number })[] = [];
    await measuredWindow(async () => {
      for (let run = 1; run <= runs; run++) {
        // The import's own elapsed time, from its 202 on: the project's creation before it is not timed.
        const { result: elapsedMs, cpuMs, worstEventLoopDelayMs } = await timeUpstreamRun(gateway, fake, latencyMs, () => importRun(run));
        rows.push({ elapsedMs, cpuMs, worstEventLoopDelayMs, requests: fake.hits().total });
      }
    });

    console.log(
      `\nbench/imports — import of ${videoCount} videos (metadata + transcript) into a project, ${videoConcurrency} videos at once, ${latencyMs} ms added to every upstream request, ${runs} runs\n`,
    );
    console.log(
      '| run | upstream requests | upstream time ms | ÷ concurrency ms | elapsed ms | gateway CPU ms | elapsed / (upstream time ÷ concurrency) | elapsed / dependent-call floor |',
    );
    console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
    const boundOf = (row: { requests: number }) => (row.requests * latencyMs) / videoConcurrency;
    const callsPerVideo = 2;
    const floor = Math.ceil(videoCount / videoConcurrency) * callsPerVideo * latencyMs;
    rows.forEach((row, i) => {
      const bound = boundOf(row);
      console.log(
        `| ${i + 1} | ${row.requests} | ${row.requests * latencyMs} | ${bound.toFixed(0)} | ${row.elapsedMs.toFixed(0)} | ${row.cpuMs ?? 'n/a'} | ${(row.elapsedMs / bound).toFixed(2)} | ${(row.elapsedMs / floor).toFixed(2)} |`,
      );
    });
    const elapsed = median(rows.map((row) => row.elapsedMs));
    const bound = median(rows.map(boundOf));
    console.log(
      `\nmedian: ${elapsed.toFixed(0)} ms against ${bound.toFixed(0)} ms of upstream time ÷ ${videoConcurrency} — ratio ${(elapsed / bound).toFixed(2)} (aim ≤ 1.2)`,
    );
    console.log(
      `against the dependent-call floor (${Math.ceil(videoCount / videoConcurrency)} videos per lane × ${callsPerVideo} calls × ${latencyMs} ms = ${floor} ms): ratio ${(elapsed / floor).toFixed(2)}`,
    );
    console.log(eventLoopVerdict(rows.map((row) => row.worstEventLoopDelayMs)));
  });
}

await main();
