import type { RunningProcess } from '@vrs/testing/processes';
import { startFakeYouTube } from '@vrs/testing/upstreams/youtube/server';
import { startBenchGateway, watchGatewayEventLoop } from './bench-gateway';
import { withTempDir } from './figures';
import { cpuMsOf } from './process-cpu';

export type FakeYouTube = Awaited<ReturnType<typeof startFakeYouTube>>;

/** A bench gateway that reads YouTube from `fake`, its rate limits counted in memory. */
export function startUpstreamGateway(name: string, runDir: string, fake: FakeYouTube, env: NodeJS.ProcessEnv = {}) {
  return startBenchGateway(name, runDir, { RATE_LIMIT_STORE: 'memory', YOUTUBE_UPSTREAM_URL: fake.url, ...env });
}

/**
 * Runs `body` against a bench gateway in front of the fake YouTube upstream, which replays the dirs
 * `replayDirs` returns (it may write some into the run's own dir first); all are stopped and removed after.
 */
export async function withUpstreamGateway(
  name: string,
  replayDirs: (runDir: string) => Promise<string[]> | string[],
  env: NodeJS.ProcessEnv,
  body: (gateway: RunningProcess, fake: FakeYouTube) => Promise<void>,
): Promise<void> {
  await withTempDir(`vrs-${name}-`, async (runDir) => {
    const fake = await startFakeYouTube({ replayDirs: await replayDirs(runDir), log: () => undefined });
    const gateway = await startUpstreamGateway(name, runDir, fake, env);
    try {
      await body(gateway, fake);
    } finally {
      await gateway.stop();
      await fake.close();
    }
  });
}

/** The gateway over one measured run (`timeUpstreamRun`). */
export type RunFigures = Pick<Awaited<ReturnType<typeof timeUpstreamRun>>, 'elapsedMs' | 'cpuMs' | 'worstEventLoopDelayMs'>;

/**
 * One measured run against the fake upstream, its log cleared and `latencyMs` added to every request:
 * the run's result, when it started and ended, and the gateway's CPU time (null off Linux) and worst
 * event-loop delay over it.
 */
export async function timeUpstreamRun<T>(gateway: RunningProcess, fake: FakeYouTube, latencyMs: number, run: () => Promise<T>) {
  fake.reset();
  fake.setLatency(latencyMs);
  const worstEventLoopDelay = await watchGatewayEventLoop(gateway.url);
  const cpuBefore = cpuMsOf(gateway.child.pid);
  const started = performance.now();
  const result = await run();
  const ended = performance.now();
  const cpuAfter = cpuMsOf(gateway.child.pid);
  const worstEventLoopDelayMs = await worstEventLoopDelay();
  const cpuMs = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
  return { result, started, ended, elapsedMs: ended - started, cpuMs, worstEventLoopDelayMs };
}
