import type { Logger } from './logger';

/**
 * A sweep run once at start (work that fell due while the process was down) and then every
 * `intervalMs`, one at a time: a call during a sweep answers that sweep's result, so a timer tick
 * and a test's `sweepOnce` never overlap. Failures are logged as `<name> failed`; the next tick retries.
 */
export function createPeriodicSweep(options: { name: string; intervalMs: number; logger: Logger; sweep: () => Promise<number> }) {
  const { name, intervalMs, logger } = options;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;

  function sweepOnce(): Promise<number> {
    running ??= options.sweep().finally(() => {
      running = undefined;
    });
    return running;
  }

  const sweepLogged = () => void sweepOnce().catch((err: unknown) => logger.error({ err }, `${name} failed`));

  return {
    sweepOnce,
    start() {
      sweepLogged();
      timer = setInterval(sweepLogged, intervalMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
  };
}
