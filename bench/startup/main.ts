// bench/startup: start-up time and idle RSS of every process, TypeScript through tsx (tests, `npm run
// dev`) against the bundles of `npm run build` (`npm start`, the image), with and without
// --enable-source-maps, alternating in one run so the comparison holds on a noisy machine (ADR 0043),
// in both shapes. Also a no-op `npm run build` (turbo's cache, ADR 0108) beside scripts/build.mjs
// alone, as a build after any change runs. Not a test: it prints figures (medians).
// RSS under load: `npm run bench:search` (bundles) against `BENCH_CODE=source npm run bench:search`.
// Env: BENCH_ROUNDS (3), BENCH_SETTLE_MS (2000, idle time before RSS is read).
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { repoRoot, required } from '@vrs/kit';
import { buildBundles } from '@vrs/testing/build-bundles';
import { processFiguresOf, startBenchGateway, type BenchRun } from '../support/bench-gateway';
import { stackFigures, startDevShapeStack } from '../support/dev-stack';
import { loadAverages, withTempDir } from '../support/figures';

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const settleMs = Number(process.env.BENCH_SETTLE_MS ?? 2000);

const variants: { label: string; run: BenchRun }[] = [
  { label: 'TypeScript through tsx', run: { code: 'source' } },
  { label: 'bundle', run: { code: 'bundle' } },
  { label: 'bundle, --enable-source-maps', run: { code: 'bundle', nodeArgs: ['--enable-source-maps'] } },
];

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const at = (index: number) => sorted[index] ?? Number.NaN;
  return sorted.length % 2 ? at(middle) : (at(middle - 1) + at(middle)) / 2;
};
const mb = (bytes: number) => bytes / 1024 / 1024;

type Sample = Awaited<ReturnType<typeof sample>>;

async function sample(run: BenchRun, runDir: string, round: number) {
  const oneDir = await mkdtemp(join(runDir, 'one-'));
  let started = performance.now();
  const gateway = await startBenchGateway(`startup-one-${round}`, oneDir, {}, run);
  const oneProcessStartMs = performance.now() - started;
  let oneProcessRssMb: number;
  try {
    await sleep(settleMs);
    oneProcessRssMb = mb((await processFiguresOf(gateway.url)).rssBytes);
  } finally {
    await gateway.stop();
  }

  const stackDir = await mkdtemp(join(runDir, 'stack-'));
  started = performance.now();
  const stack = await startDevShapeStack(`startup-stack-${round}`, stackDir, {}, run);
  const stackStartMs = performance.now() - started;
  try {
    await sleep(settleMs);
    const figures = await stackFigures(stack.processes);
    return {
      oneProcessStartMs,
      oneProcessRssMb,
      stackStartMs,
      stackRssMb: Object.fromEntries(figures.map((figure) => [figure.name.replace(/^startup-stack-\d+-/, ''), mb(figure.rssBytes)])),
    };
  } finally {
    await stack.stop();
  }
}

async function timeBuild(command: string, args: string[]): Promise<number> {
  const started = performance.now();
  await promisify(execFile)(command, args, { cwd: repoRoot });
  return performance.now() - started;
}

async function main() {
  const load = loadAverages(' ');
  await withTempDir('vrs-bench-startup-', async (runDir) => {
    await buildBundles();
    const buildMs: number[] = [];
    const forcedBuildMs: number[] = [];
    const samples = variants.map((variant) => ({ variant, of: [] as Sample[] }));
    for (let round = 0; round < rounds; round++) {
      buildMs.push(await timeBuild(join(repoRoot, 'node_modules/.bin/turbo'), ['run', '//#bundle']));
      forcedBuildMs.push(await timeBuild(process.execPath, [join(repoRoot, 'scripts/build.mjs')]));
      for (const { variant, of } of samples) of.push(await sample(variant.run, runDir, round));
    }
    const names = Object.keys(required(samples[0]?.of[0], 'a sample (BENCH_ROUNDS must be at least 1)').stackRssMb);
    console.log(`\nbench/startup — ${rounds} rounds, RSS read ${settleMs} ms after start, medians; load average at start ${load}\n`);
    console.log(
      `| run | npm start shape: start ms | RSS MB | separate processes: all 7 started ms | ${names.map((n) => `${n} MB`).join(' | ')} |`,
    );
    console.log(`|---|---:|---:|---:|${names.map(() => '---:').join('|')}|`);
    for (const { variant, of } of samples) {
      const rss = names.map((name) =>
        median(of.map((s) => required(s.stackRssMb[name], `the RSS of ${name} in a sample (each has the first's processes)`))).toFixed(0),
      );
      console.log(
        `| ${variant.label} | ${median(of.map((s) => s.oneProcessStartMs)).toFixed(0)} | ${median(of.map((s) => s.oneProcessRssMb)).toFixed(0)} | ${median(of.map((s) => s.stackStartMs)).toFixed(0)} | ${rss.join(' | ')} |`,
      );
    }
    console.log(
      `\nnpm run build with nothing changed (what npm start adds before it starts): ${median(buildMs).toFixed(0)} ms, against ${median(forcedBuildMs).toFixed(0)} ms bundling anyway (scripts/build.mjs): ${(median(buildMs) / median(forcedBuildMs)).toFixed(2)}`,
    );
    console.log(`load average at the end ${loadAverages(' ')}`);
  });
}

await main();
