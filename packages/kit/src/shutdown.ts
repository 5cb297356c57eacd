import type { Logger } from './logger';

type ShutdownHook = { name: string; run: () => Promise<void> | void };

/**
 * Runs registered hooks in reverse order on SIGTERM / SIGINT (last started, first stopped), so the
 * HTTP server stops taking requests before the bus and stores it depends on are closed.
 */
export function createShutdown(logger: Logger) {
  const hooks: ShutdownHook[] = [];
  let stopping: Promise<void> | undefined;

  async function shutdown(reason: string): Promise<void> {
    stopping ??= (async () => {
      logger.info({ reason }, 'shutting down');
      for (const hook of [...hooks].reverse()) {
        try {
          await hook.run();
        } catch (err) {
          logger.error({ err, hook: hook.name }, 'shutdown hook failed');
        }
      }
      logger.info('stopped');
    })();
    return stopping;
  }

  return {
    onShutdown(name: string, run: ShutdownHook['run']) {
      hooks.push({ name, run });
    },
    installSignalHandlers() {
      for (const signal of ['SIGTERM', 'SIGINT'] as const) {
        process.once(signal, () => {
          const timer = setTimeout(() => {
            logger.error('shutdown timed out');
            process.exit(1);
          }, 10_000);
          timer.unref();
          void shutdown(signal).then(() => process.exit(0));
        });
      }
    },
  };
}
