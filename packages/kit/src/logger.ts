import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * One JSON logger for the whole system. A line written for a request carries its `requestId`
 * because the writer has the request's context at hand (`ctx.requestId`, an event's envelope) and
 * puts it there: nothing is read from AsyncLocalStorage (ADR 0048). It puts them with
 * `requestLogFields(ctx)`, which with tracing on adds the `trace_id` and `span_id` of where the
 * request is in its trace (ADRs 0102, 0117).
 */
export const rootLogger: Logger = pino({
  level: process.env.LOG_LEVEL ?? 'info',
  base: { pid: process.pid },
  timestamp: pino.stdTimeFunctions.isoTime,
});

export function createLogger(component: string): Logger {
  return rootLogger.child({ component });
}

/**
 * A logger for a part of `parent`'s component (a consumer, the outbox): its lines name the part as
 * their one `component`, beside `parent`'s other bindings, at `parent`'s level. `parent.child` would
 * write the key twice.
 */
export function componentLogger(parent: Logger, component: string): Logger {
  const { component: _parentComponent, ...bindings } = parent.bindings();
  return rootLogger.child({ ...bindings, component }, { level: parent.level });
}
