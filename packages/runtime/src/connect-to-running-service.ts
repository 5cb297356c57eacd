import type { TRPCClient } from '@trpc/client';
import type { AnyRouter } from '@trpc/server';
import { baseEnvSchema, createServiceClient, loadConfig } from '@vrs/kit';
import { readRuntimeRecord, runtimeRecordFileOf } from './runtime-record';

type HostedService = 'billing' | 'research' | 'provider' | 'trends' | 'agents';

/**
 * A typed client for an operator tool (create-api-key, reindex) to a running service's internal
 * endpoint: the *_SERVICE_URL the environment sets, else the URL the `npm start` running on DATA_DIR
 * recorded, else the fixed port `npm run dev` and docker compose use.
 */
export async function connectToRunningService<TRouter extends AnyRouter>(
  service: HostedService,
  options: { caller: string; env?: NodeJS.ProcessEnv },
): Promise<{ client: TRPCClient<TRouter>; url: string; unreachable: (error: unknown) => string }> {
  const env = options.env ?? process.env;
  const config = loadConfig(baseEnvSchema, env);
  const variable = `${service.toUpperCase() as Uppercase<HostedService>}_SERVICE_URL` as const;
  const recorded = env[variable] ? undefined : (await readRuntimeRecord(config.DATA_DIR))?.services[service];
  const url = recorded ?? config[variable];
  const source = env[variable] ? variable : recorded ? runtimeRecordFileOf(config.DATA_DIR) : 'the default';
  const internalToken = env.INTERNAL_TOKEN ?? 'local-development-internal-token';
  return {
    client: createServiceClient<TRouter>({
      mode: 'http',
      url,
      internalToken,
      caller: options.caller,
      timeoutMs: config.SERVICE_CALL_TIMEOUT_MS,
    }),
    url,
    unreachable: (error) =>
      `Could not reach ${service} at ${url} (from ${source}): ${(error as Error).message}\n` +
      'Is the system running (npm start, with the same DATA_DIR), and is INTERNAL_TOKEN the one it uses?',
  };
}
