import { join } from 'node:path';
import { deleteNamespace } from '@vrs/bus';
import { internalTokenHeader, processFiguresPath, type ProcessFigures } from '@vrs/kit';
import { buildBundles } from '@vrs/testing/build-bundles';
import { startGatewayProcess, type ProcessCode, type RunningProcess } from '@vrs/testing/processes';

/** The internal token of a bench gateway: it reads the process figures (`/ops/process`) with it. */
export const benchInternalToken = 'bench-internal-token-0123456789';

/**
 * What every bench stack runs with: demo mode, credits and rate limits out of the way, its own data
 * dir and NATS namespace (named after the stack and this process, deleted when it stops).
 */
export function benchSettings(name: string, runDir: string) {
  const namespace = `${name.replace(/[^A-Za-z0-9_-]/g, '_')}_${process.pid}`;
  const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
  const settings: NodeJS.ProcessEnv = {
    NODE_ENV: 'test',
    DEMO_MODE: 'true',
    DATA_DIR: join(runDir, 'data'),
    NATS_URL: natsUrl,
    NATS_NAMESPACE: namespace,
    INTERNAL_TOKEN: benchInternalToken,
    BILLING_STARTING_CREDITS: '1000000000',
    PLAN_FREE_REQUESTS_PER_MINUTE: '1000000000',
    RATE_LIMIT_PER_IP: '1000000000',
  };
  return { namespace, natsUrl, settings };
}

/**
 * What bench stacks run: by default the bundles production and `npm start` run (`npm run build`,
 * run once first); BENCH_CODE=source runs the TypeScript through tsx instead, to compare (ADR 0043).
 */
export async function benchCode(): Promise<ProcessCode> {
  const code = process.env.BENCH_CODE ?? 'bundle';
  if (code !== 'bundle' && code !== 'source') throw new Error(`BENCH_CODE must be bundle or source, not ${code}`);
  if (code === 'bundle') await buildBundles();
  return code;
}

/** How a bench stack's processes run, when a bench compares ways (bench/startup); unset: `benchCode`. */
export interface BenchRun {
  code?: ProcessCode;
  nodeArgs?: string[];
}

/**
 * The whole system in one process, as `npm start` runs it (its bundle, see `benchCode`), with quiet logs
 * and `benchSettings` (demo mode: `X-Demo-User` needs no key round trip), its namespace deleted again
 * when it stops, so benchmarks leave nothing behind on a shared nats-server.
 */
export async function startBenchGateway(
  name: string,
  runDir: string,
  env: NodeJS.ProcessEnv = {},
  run: BenchRun = {},
): Promise<RunningProcess> {
  const { namespace, natsUrl, settings } = benchSettings(name, runDir);
  const gateway = await startGatewayProcess(
    name,
    { ...settings, LOG_LEVEL: 'warn', SERVICES_MODE: 'inprocess', SERVE_HOSTED_SERVICES: 'false', ...env },
    runDir,
    // BENCH_NODE_ARGS: space-separated Node flags for every bench's gateway (`--trace-gc`, the image's V8 flags).
    { code: run.code ?? (await benchCode()), nodeArgs: run.nodeArgs ?? process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) },
  );
  return {
    ...gateway,
    async stop() {
      await gateway.stop();
      await deleteNamespace(natsUrl, namespace).catch(() => undefined);
    },
  };
}

/** RSS and event-loop delay of a bench gateway process since the last call (which resets the delay figures). */
export async function processFiguresOf(gatewayUrl: string): Promise<ProcessFigures> {
  const response = await fetch(`${gatewayUrl}${processFiguresPath}?reset=true`, { headers: { [internalTokenHeader]: benchInternalToken } });
  if (!response.ok) throw new Error(`process figures: ${response.status}`);
  return (await response.json()) as ProcessFigures;
}

/**
 * Starts the gateway's event-loop delay figures afresh; the function it returns reads the worst delay
 * (ms) since then. Benchmarks read it around each measured run: issue 15 bounds every stall at 50 ms.
 */
export async function watchGatewayEventLoop(gatewayUrl: string): Promise<() => Promise<number>> {
  await processFiguresOf(gatewayUrl);
  return async () => (await processFiguresOf(gatewayUrl)).eventLoopDelayMs.max;
}

/** The closing line of a benchmark that watched the gateway's event loop over its measured runs. */
export function eventLoopVerdict(worstDelaysMs: number[]): string {
  const worst = Math.max(...worstDelaysMs);
  return `worst event-loop delay of the gateway during the measured runs: ${worst.toFixed(1)} ms (goal ≤ 50; per run: ${worstDelaysMs.map((delay) => delay.toFixed(0)).join(', ')})`;
}
