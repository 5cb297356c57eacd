import { createRequire } from 'node:module';
import * as api from '@opentelemetry/api';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { NodeSDK } from '@opentelemetry/sdk-node';

/** Liveness and readiness probes: not requests anyone follows, and they would flood the traces. */
const probePaths = new Set(['/health', '/ready', '/v1/health', '/v1/ready', '/metrics']);

/**
 * The context manager of a process that carries its trace context explicitly (ADR 0117): a context is
 * active for the synchronous extent of `with`, and a bound function restores it when called. It
 * follows nothing across `await`, so it installs no promise hooks, which on Node 20 cost every promise
 * of the process (the SDK's default, AsyncLocalStorage, cost a traced search about a quarter of its
 * throughput). The browser SDK's `StackContextManager` is the same idea.
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
 * (JSON on stdout, joined to traces by `trace_id`) are not sent over OTLP. Client spans are ours (a
 * service call, a YouTube read, an LLM attempt, a webhook delivery), made where the request's trace
 * context is at hand; only the HTTP server span comes from an instrumentation.
 */
export function startTracingSdk(service: string): { api: typeof api; shutdown: () => Promise<void> } {
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME || service,
    contextManager: new SynchronousContextManager(),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => probePaths.has((request.url ?? '').split('?', 1)[0] ?? ''),
        // Outgoing calls get our own client spans, with their request's parent (ADR 0117).
        disableOutgoingRequestInstrumentation: true,
        // Every answer carries the request's id (the gateway's own, or the one a service was called with).
        applyCustomAttributesOnSpan(span, _request, response) {
          const requestId = 'getHeader' in response ? response.getHeader('x-request-id') : undefined;
          if (typeof requestId === 'string') span.setAttribute('vrs.request_id', requestId);
        },
      }),
    ],
  });
  sdk.start();
  // The HTTP instrumentation patches `http` when it is next required; our ES modules imported it
  // already, so require it once here (its Server.prototype is what gets patched).
  createRequire(import.meta.url)('node:http');
  return { api, shutdown: () => sdk.shutdown() };
}
