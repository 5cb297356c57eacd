import { pino, type Logger } from 'pino';
import { currentRequestContext } from './request-context';

export type { Logger };

/**
 * One JSON logger for the whole system. The mixin reads the request context from
 * AsyncLocalStorage, so every line written while serving a request carries its requestId
 * without anyone passing it by hand.
 */
export const rootLogger: Logger = pino({
  level: process.env.LOG_LEVEL ?? 'info',
  base: { pid: process.pid },
  timestamp: pino.stdTimeFunctions.isoTime,
  mixin() {
    const context = currentRequestContext();
    return context ? { requestId: context.requestId } : {};
  },
});

export function createLogger(component: string): Logger {
  return rootLogger.child({ component });
}
