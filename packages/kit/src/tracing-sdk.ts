import * as api from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';

/**
 * The context manager of a process that carries its trace context explicitly (ADR 0117): a context is
 * active for the synchronous extent of `with`, and a bound function restores it when called. It
 * follows nothing across `await`, so it installs no promise hooks, which on Node 20 cost every promise
 * of the process (the SDK's default, AsyncLocalStorage, cost a traced search about a quarter of its
 * throughput). Nothing of ours reads the active context; the SDK enters one to export a batch, and
 * without this manager it would install AsyncLocalStorage there. The browser SDK's
 * `StackContextManager` is the same idea.
 */
export class SynchronousContextManager implements api.ContextManager {
  private current: api.Context = api.ROOT_CONTEXT;

  active(): api.Context {
    return this.current;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    context: api.Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    const previous = this.current;
    this.current = context;
    try {
      return fn.call(thisArg, ...args);
    } finally {
      this.current = previous;
    }
  }

  bind<T>(context: api.Context, target: T): T {
    if (typeof target !== 'function') return target;
    const manager = this;
    return function (this: unknown, ...args: unknown[]) {
      return manager.with(context, () => (target as (...a: unknown[]) => unknown).apply(this, args));
    } as T;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.current = api.ROOT_CONTEXT;
    return this;
  }
}

/**
 * OpenTelemetry's Node SDK, imported only when tracing is on (`tracing.ts`). The exporter, protocol,
 * sampler and propagators come from the standard OTEL_* variables; metrics (Prometheus) and logs
 * (JSON on stdout, joined to traces by `trace_id`) are not sent over OTLP. Every span is ours, made
 * where the request's trace context is at hand (ADRs 0117, 0118): no instrumentation patches a module.
 */
export function startTracingSdk(service: string): { api: typeof api; shutdown: () => Promise<void> } {
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME || service,
    contextManager: new SynchronousContextManager(),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [],
  });
  sdk.start();
  return { api, shutdown: () => sdk.shutdown() };
}
