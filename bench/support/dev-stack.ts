import { deleteNamespace } from '@vrs/bus';
import { startGatewayProcess, startServiceProcess, type RunningProcess } from '@vrs/testing/processes';
import { benchCode, benchSettings, processFiguresOf, type BenchRun } from './bench-gateway';

/** The system as docker compose runs it: each service its own process, called over HTTP by the gateway. */
export interface DevShapeStack {
  gateway: RunningProcess;
  /** Every process of the stack, the gateway last. */
  processes: RunningProcess[];
  stop(): Promise<void>;
}

/**
 * Starts billing, provider, research, trends, monitoring and agents as separate processes
 * (SERVICES_MODE=http) and a gateway in front, as docker compose runs them (`benchCode`), with
 * `benchSettings`: its own data dir and NATS namespace, removed again when it stops.
 */
export async function startDevShapeStack(
  name: string,
  runDir: string,
  env: NodeJS.ProcessEnv = {},
  run: BenchRun = {},
): Promise<DevShapeStack> {
  const { namespace, natsUrl, settings } = benchSettings(name, runDir);
  const stackEnv: NodeJS.ProcessEnv = {
    ...settings,
    // Services log nothing per call; their start line ('service listening') is what the starter waits for.
    LOG_LEVEL: 'info',
    SERVICES_MODE: 'http',
    ...env,
  };
  const processes: RunningProcess[] = [];
  const stop = async () => {
    await Promise.all(processes.reverse().map((running) => running.stop()));
    await deleteNamespace(natsUrl, namespace).catch(() => undefined);
  };
  try {
    const options = { code: run.code ?? (await benchCode()), nodeArgs: run.nodeArgs };
    // In dependency order: each service learns the URLs of those it calls.
    for (const service of ['billing', 'provider', 'research', 'trends', 'monitoring', 'agents'] as const) {
      const running = await startServiceProcess(service, stackEnv, runDir, options);
      processes.push(running);
      stackEnv[`${service.toUpperCase()}_SERVICE_URL`] = running.url;
    }
    // The gateway writes an access line per request at info: quiet, as the bench gateway is.
    const gateway = await startGatewayProcess(`${name}-gateway`, { ...stackEnv, LOG_LEVEL: 'warn' }, runDir, options);
    processes.push(gateway);
    return { gateway, processes: [...processes], stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Each process's figures (`processFiguresOf`: its delay figures reset by the call), named after it. */
export function stackFigures(processes: readonly RunningProcess[]) {
  return Promise.all(processes.map(async (running) => ({ name: running.name, ...(await processFiguresOf(running.url)) })));
}
