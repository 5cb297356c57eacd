import { openStore, StoreLockedError, type Store } from '@vrs/store';
import type { EventBus } from '@vrs/bus';
import type { ServiceName } from '@vrs/contracts';
import {
  createLogger,
  createShutdown,
  loadConfig,
  startServiceServer,
  startTracing,
  ConfigError,
  PortInUseError,
  type BaseConfig,
  type Logger,
  type ServiceModule,
} from '@vrs/kit';
import type { z } from 'zod';
import { openBus } from './open-bus';

export interface ServiceDependencies {
  store: Store;
  bus: EventBus;
  logger: Logger;
}

/** Prints a configuration error naming the variable and stops, instead of a stack trace. */
export function exitOnConfigError(error: unknown): never {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(78);
  }
  throw error;
}

/**
 * Start-up problems a person fixes by choosing something else (a port, a data directory) are one
 * line on stderr and exit code 1; anything else is a bug and keeps its stack trace.
 */
export function exitOnOperatorError(error: unknown): void {
  if (error instanceof ConfigError) exitOnConfigError(error);
  if (error instanceof PortInUseError || error instanceof StoreLockedError) {
    console.error(error.message);
    process.exit(1);
  }
}

/**
 * `main.ts` of every service: reads config, opens the service's own store and the bus, starts the
 * module and serves its router over HTTP (`SERVICES_MODE=http`), and stops cleanly on SIGTERM.
 * `createModule` gets the internal token start-up has checked, for the clients of other services.
 */
export async function runServiceProcess<S extends z.ZodObject, C extends BaseConfig & z.infer<S>>(options: {
  service: ServiceName;
  envSchema: S;
  ownUrl: (config: C) => string;
  createModule: (deps: ServiceDependencies, config: C, internalToken: string) => Promise<ServiceModule>;
}): Promise<void> {
  const logger = createLogger(options.service);
  let config: C;
  try {
    config = loadConfig(options.envSchema) as C;
  } catch (error) {
    exitOnConfigError(error);
  }
  const internalToken = config.INTERNAL_TOKEN;
  if (!internalToken) exitOnConfigError(new ConfigError(['INTERNAL_TOKEN: required for a service process']));

  try {
    const shutdown = createShutdown(logger);
    shutdown.installSignalHandlers();
    // First started, so last stopped: spans of the shutdown itself are flushed too.
    const stopTracing = await startTracing(options.service);
    if (stopTracing) shutdown.onShutdown('tracing', stopTracing);
    const store = await openStore({
      service: options.service,
      mongodbUrl: config.MONGODB_URL,
      dataDir: config.DATA_DIR,
      synchronous: config.STORE_SYNCHRONOUS,
    });
    shutdown.onShutdown('store', () => store.close());
    const bus = await openBus(config, { name: options.service, allowMemoryFallback: false, logger });
    shutdown.onShutdown('bus', () => bus.close());
    const module = await options.createModule({ store, bus, logger }, config, internalToken);
    await module.start();
    shutdown.onShutdown('module', () => module.stop());

    const port = config.SERVICE_PORT ?? Number(new URL(options.ownUrl(config)).port);
    const server = await startServiceServer({
      service: options.service,
      router: module.router,
      port,
      host: config.HOST,
      portSetting: config.SERVICE_PORT === undefined ? `${options.service.toUpperCase()}_SERVICE_URL` : 'SERVICE_PORT',
      internalToken,
      internalClients: { inline: config.INTERNAL_CLIENTS, file: config.INTERNAL_CLIENTS_FILE },
      logger,
      turnBudgetMs: config.REQUEST_TURN_BUDGET_MS,
    });
    shutdown.onShutdown('http', () => server.close());
  } catch (error) {
    exitOnOperatorError(error);
    throw error;
  }
}
