import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Attributes, Context, Span, SpanKind, Tracer } from '@opentelemetry/api';

/**
 * OpenTelemetry tracing (ADRs 0102, 0117). Off unless an OTLP endpoint is configured, and then nothing
 * of OpenTelemetry is loaded: these helpers run the work they wrap and return, and the tRPC builder and
 * the store add nothing (they ask `tracingConfigured` once, at load). On, the SDK (`tracing-sdk.ts`) is
 * imported by `startTracing` before the process serves anything.
 *
 * A request's place in its trace travels explicitly, beside its id (`RequestContext.trace`), never
 * through AsyncLocalStorage (ADR 0117); it starts as the request's HTTP server span (`withRequestSpans`).
 */
type Api = typeof import('@opentelemetry/api');

/** The W3C trace context of a span (`traceparent`, `tracestate`), as carried in headers and stored with an outbox event. */
export type TraceCarrier = Record<string, string>;

/** Where a request is in its trace: the span its next spans go under. Opaque; undefined with tracing off. */
export type TraceContext = Context;

/** A span, as the helpers hand it to the work they wrap (undefined with tracing off). */
export type TraceSpan = Span;

export type SpanKindName = 'server' | 'client' | 'producer' | 'consumer' | 'internal';

export interface SpanOptions {
  kind: SpanKindName;
  attributes?: Attributes;
  /**
   * The parent: a request's trace context, or a carrier read from a message or a stored event. Absent,
   * the span starts a trace of its own (a batch serving many requests, a timer's work).
   */
  parent?: TraceContext | TraceCarrier;
}

let started: { api: Api; tracer: Tracer; kinds: Record<SpanKindName, SpanKind> } | undefined;

/** Whether this process traces: OTEL_EXPORTER_OTLP_ENDPOINT (or its traces-only form) set, and OTEL_SDK_DISABLED not true. */
export function tracingConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) && env.OTEL_SDK_DISABLED !== 'true';
}

/**
 * Starts the SDK when tracing is configured, naming the process's spans `service`; call it first in a
 * process's main, before servers and clients exist. Resolves with the flush to run at shutdown, or
 * undefined when tracing is off.
 */
export async function startTracing(service: string): Promise<(() => Promise<void>) | undefined> {
  if (!tracingConfigured() || started) return undefined;
  const { startTracingSdk } = await import('./tracing-sdk');
  const sdk = startTracingSdk(service);
  const { SpanKind: kind } = sdk.api;
  started = {
    api: sdk.api,
    tracer: sdk.api.trace.getTracer('vrs'),
    kinds: { server: kind.SERVER, client: kind.CLIENT, producer: kind.PRODUCER, consumer: kind.CONSUMER, internal: kind.INTERNAL },
  };
  return sdk.shutdown;
}

function parentContext(api: Api, parent: TraceContext | TraceCarrier | undefined): Context {
  if (!parent) return api.ROOT_CONTEXT;
  if (typeof (parent as Partial<Context>).getValue === 'function') return parent as Context;
  return api.propagation.extract(api.ROOT_CONTEXT, parent);
}

/**
 * Runs `work` in a new span under `options.parent`, ended when `work` settles; a throw marks it
 * failed. `work` gets the span and the trace context to hand on (to calls, events, log lines), which
 * is also the active one while `work` runs synchronously. With tracing off, runs `work` alone.
 */
export function inSpan<T>(name: string, options: SpanOptions, work: (span?: TraceSpan, trace?: TraceContext) => Promise<T>): Promise<T> {
  if (!started) return work();
  const { api, tracer, kinds } = started;
  const parent = parentContext(api, options.parent);
  const span = tracer.startSpan(name, { kind: kinds[options.kind], attributes: options.attributes }, parent);
  const trace = api.trace.setSpan(parent, span);
  return api.context.with(trace, async () => {
    try {
      return await work(span, trace);
    } catch (error) {
      markFailed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Liveness and readiness probes: not requests anyone follows, and they would flood the traces. */
const probePaths = new Set(['/health', '/ready', '/v1/health', '/v1/ready', '/metrics']);

/** Spans `markFailed` marked: a request's span keeps that status, with its message, when the answer is a 5xx. */
const failedSpans = new WeakSet<Span>();

/** Each request's HTTP server span, as `withRequestSpans` started it. */
const requestTraces = new WeakMap<IncomingMessage, TraceContext>();

/**
 * `listener` with an HTTP server span per request (HTTP semantic conventions, ADR 0118), started as
 * the request arrives, under the caller's `traceparent` if it sent one, and ended when the answer is
 * sent or the connection closes first. `traceOfRequest` reads it. `listener` itself when tracing is off.
 */
export function withRequestSpans(listener: (req: IncomingMessage, res: ServerResponse) => void) {
  if (!started) return listener;
  const { api, tracer, kinds } = started;
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?', 1)[0] ?? '/';
    if (!probePaths.has(path)) {
      const attributes: Attributes = {
        'http.request.method': req.method,
        'url.scheme': 'http',
        // The path only: a query holds what the caller asked (a search's words), which no trace keeps.
        'url.path': path,
        'network.protocol.version': req.httpVersion,
      };
      const userAgent = req.headers['user-agent'];
      if (userAgent) attributes['user_agent.original'] = userAgent;
      const parent = api.propagation.extract(api.ROOT_CONTEXT, req.headers);
      const span = tracer.startSpan(req.method ?? 'HTTP', { kind: kinds.server, attributes }, parent);
      requestTraces.set(req, api.trace.setSpan(parent, span));
      res.once('close', () => {
        // The gateway answers with the request's id; a service was called with it.
        const requestId = res.getHeader('x-request-id') ?? req.headers['x-request-id'];
        if (typeof requestId === 'string') span.setAttribute('vrs.request_id', requestId);
        if (!res.writableFinished) {
          span.setStatus({ code: api.SpanStatusCode.ERROR, message: 'the connection closed before the answer was sent' });
        } else {
          span.setAttribute('http.response.status_code', res.statusCode);
          if (res.statusCode >= 500 && !failedSpans.has(span)) span.setStatus({ code: api.SpanStatusCode.ERROR });
        }
        span.end();
      });
    }
    listener(req, res);
  };
}

/** The trace context of `req`'s HTTP server span (`withRequestSpans`); undefined when tracing is off or for a probe. */
export function traceOfRequest(req: IncomingMessage): TraceContext | undefined {
  return requestTraces.get(req);
}

/** Records `error` on `span` and sets its status to error. */
export function markFailed(span: Span | undefined, error: unknown): void {
  if (!span || !started) return;
  if (error instanceof Error) span.recordException(error);
  failedSpans.add(span);
  span.setStatus({ code: started.api.SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/** `parent` as a trace context (a carrier is read); undefined when tracing is off or none is given. */
export function traceContextOf(parent: TraceContext | TraceCarrier | undefined): TraceContext | undefined {
  return started && parent ? parentContext(started.api, parent) : undefined;
}

/** `trace` as W3C headers, to send or store; undefined when tracing is off or `trace` holds no span. */
export function traceCarrierOf(trace: TraceContext | undefined): TraceCarrier | undefined {
  if (!started || !trace) return undefined;
  const carrier: TraceCarrier = {};
  started.api.propagation.inject(trace, carrier);
  return carrier.traceparent ? carrier : undefined;
}

/** The span of `trace`, to name or annotate (the gateway's operation on the request's HTTP span); undefined when off. */
export function spanOf(trace: TraceContext | undefined): TraceSpan | undefined {
  return trace && started?.api.trace.getSpan(trace);
}

/**
 * The fields a log line written for a request carries: its `requestId` and, with tracing on, the
 * `trace_id` and `span_id` of where it is in its trace (ADR 0102's logs joining traces).
 */
export function requestLogFields(context: { requestId: string; trace?: TraceContext }): {
  requestId: string;
  trace_id?: string;
  span_id?: string;
} {
  const span = spanOf(context.trace);
  if (!span) return { requestId: context.requestId };
  const { traceId, spanId } = span.spanContext();
  return { requestId: context.requestId, trace_id: traceId, span_id: spanId };
}
