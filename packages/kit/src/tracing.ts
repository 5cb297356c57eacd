import type { Attributes, Span, SpanKind, Tracer } from '@opentelemetry/api';

/**
 * OpenTelemetry tracing (ADR 0102). Off unless an OTLP endpoint is configured, and then nothing of
 * OpenTelemetry is loaded: these helpers run the work they wrap and return, and the tRPC builder,
 * the logger and the store add nothing (they ask `tracingConfigured` once, at load). On, the SDK
 * (`tracing-sdk.ts`) is imported by `startTracing` before the process serves anything.
 */
type Api = typeof import('@opentelemetry/api');

/** The W3C trace context of a span (`traceparent`, `tracestate`), as carried in headers and stored with an outbox event. */
export type TraceCarrier = Record<string, string>;

/** A span, as the helpers hand it to the work they wrap (undefined with tracing off). */
export type TraceSpan = Span;

export type SpanKindName = 'server' | 'client' | 'producer' | 'consumer' | 'internal';

export interface SpanOptions {
  kind: SpanKindName;
  attributes?: Attributes;
  /** The parent, when it is not the active span: a carrier read from a message or a stored event. */
  parent?: TraceCarrier;
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

/**
 * Runs `work` in a new span (a child of the active span, or of `options.parent`), ended when `work`
 * settles; a throw marks it failed. With tracing off, runs `work` alone.
 */
export function inSpan<T>(name: string, options: SpanOptions, work: (span?: TraceSpan) => Promise<T>): Promise<T> {
  if (!started) return work();
  const { api, tracer, kinds } = started;
  const parent = options.parent ? api.propagation.extract(api.ROOT_CONTEXT, options.parent) : api.context.active();
  return tracer.startActiveSpan(name, { kind: kinds[options.kind], attributes: options.attributes }, parent, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      markFailed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** `work` bound to the active trace context, to run in it later (a queued request); `work` itself when tracing is off. */
export function inActiveContext<A extends unknown[]>(work: (...args: A) => void): (...args: A) => void {
  if (!started) return work;
  return started.api.context.bind(started.api.context.active(), work);
}

/** Records `error` on `span` and sets its status to error. */
export function markFailed(span: Span | undefined, error: unknown): void {
  if (!span || !started) return;
  if (error instanceof Error) span.recordException(error);
  span.setStatus({ code: started.api.SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/** The active trace context as W3C headers, or undefined when tracing is off or no span is active. */
export function activeTraceCarrier(): TraceCarrier | undefined {
  if (!started) return undefined;
  const carrier: TraceCarrier = {};
  started.api.propagation.inject(started.api.context.active(), carrier);
  return carrier.traceparent ? carrier : undefined;
}

/** The active span, to name or annotate (e.g. the gateway's operation on the request's HTTP span); undefined when off. */
export function activeSpan(): TraceSpan | undefined {
  return started?.api.trace.getActiveSpan();
}

/** `trace_id` and `span_id` of the active span, for the logger's mixin; empty outside a span. */
export function activeTraceFields(): { trace_id?: string; span_id?: string } {
  const span = started?.api.trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
