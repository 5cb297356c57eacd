import type { ServerResponse } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Prometheus metrics (ADR 0100): one registry per process, served at `GET /metrics` to operators
 * (ADR 0101). Labels hold only values from known, bounded sets (operation ids, procedure paths,
 * event types, consumer and client names, outcomes): never ids, queries or accounts.
 */
export const metricsPath = '/metrics';
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

/** Seconds: from a cached read (≈ 1 ms) to a long LLM answer or import page (30 s). */
const timed = { buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30], registers: [metricsRegistry] };

const publicRequests = new Histogram({
  name: 'vrs_http_request_duration_seconds',
  help: 'Public API requests answered by the gateway, by OpenAPI operation id (`none` when no operation matched) and status class.',
  labelNames: ['operation_id', 'status_class'],
  ...timed,
});

const procedureCalls = new Histogram({
  name: 'vrs_procedure_duration_seconds',
  help: 'Internal tRPC procedure calls, by service, procedure path, calling client and outcome (`ok` or the tRPC error code).',
  labelNames: ['service', 'procedure', 'caller', 'outcome'],
  ...timed,
});

const eventLabels = ['event', 'consumer'] as const;
const eventsPublished = new Counter({
  name: 'vrs_events_published_total',
  help: 'Events published to the bus, by event type and outcome (ok, duplicate: dropped by the dedupe window, failed).',
  labelNames: ['event', 'outcome'],
  registers: [metricsRegistry],
});
/** A count per event type and consumer. */
const eventCounter = (name: string, help: string) => new Counter({ name, help, labelNames: eventLabels, registers: [metricsRegistry] });
const eventsDelivered = eventCounter('vrs_events_delivered_total', 'Event deliveries to a consumer (first deliveries and redeliveries).');
const eventsRedelivered = eventCounter(
  'vrs_events_redelivered_total',
  'Event deliveries after the first (a handler failed, or its ack wait ran out).',
);
const eventsAcked = eventCounter('vrs_events_acked_total', 'Events whose handler succeeded and which were acknowledged.');
const eventsDeadLettered = eventCounter(
  'vrs_events_dead_lettered_total',
  'Events whose handler failed on the last delivery, moved to the dead letters.',
);
const eventHandling = new Histogram({
  name: 'vrs_event_handler_duration_seconds',
  help: 'Event handler runs, by event type, consumer and outcome (ok, error).',
  labelNames: [...eventLabels, 'outcome'],
  ...timed,
});

const upstreamCalls = new Histogram({
  name: 'vrs_upstream_request_duration_seconds',
  help: 'Calls to YouTube and to the LLM, by upstream, operation and outcome (ok, 4xx, 5xx, timeout, breaker_open, invalid_output).',
  labelNames: ['upstream', 'operation', 'outcome'],
  ...timed,
});
const breakerStates = { closed: 0, half_open: 1, open: 2 } as const;
const breakerState = new Gauge({
  name: 'vrs_upstream_breaker_state',
  help: 'Circuit breaker of an upstream: 0 closed, 1 half-open, 2 open (calls refused).',
  labelNames: ['upstream'],
  registers: [metricsRegistry],
});

const creditsCharged = new Counter({
  name: 'vrs_credits_charged_total',
  help: 'Credits charged to accounts: committed ledger lines of kind charge (settled holds).',
  registers: [metricsRegistry],
});
const creditsRefunded = new Counter({
  name: 'vrs_credits_refunded_total',
  help: 'Credits given back after a charge: committed ledger lines of kind refund.',
  registers: [metricsRegistry],
});
const webhookDeliveries = new Counter({
  name: 'vrs_webhook_deliveries_total',
  help: 'Webhook delivery attempts, by outcome: succeeded, retry (failed, tried again later), failed (the last attempt failed), dropped (webhook disabled or deleted).',
  labelNames: ['outcome'],
  registers: [metricsRegistry],
});

export function statusClassOf(status: number): string {
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'other';
}

export function observePublicRequest(operationId: string | undefined, status: number, seconds: number): void {
  publicRequests.labels(operationId ?? 'none', statusClassOf(status)).observe(seconds);
}

const serviceOfRouter = new WeakMap<object, string>();

/** Names the service of a router its host calls in process, so its procedures' metrics carry the name. */
export function nameServiceRouter(service: string, router: object): void {
  serviceOfRouter.set(router, service);
}

export function serviceNameOf(router: object): string | undefined {
  return serviceOfRouter.get(router);
}

export function observeProcedureCall(service: string, procedure: string, caller: string, outcome: string, seconds: number): void {
  procedureCalls.labels(service, procedure, caller, outcome).observe(seconds);
}

export function countPublished(event: string, outcome: 'ok' | 'duplicate' | 'failed'): void {
  eventsPublished.labels(event, outcome).inc();
}

/** A consumer's name as a label: a per-process consumer's name carries its process's id, so they share one. */
export function consumerLabel(consumer: string, perProcess: boolean | undefined): string {
  return perProcess ? 'per-process' : consumer;
}

/** A delivery of `event` to `consumer`; `attempt` counts from 1. */
export function countDelivered(event: string, consumer: string, attempt: number): void {
  eventsDelivered.labels(event, consumer).inc();
  if (attempt > 1) eventsRedelivered.labels(event, consumer).inc();
}

/** How a delivery's handling ended: acknowledged, left for redelivery, or moved to the dead letters. */
export function observeHandled(event: string, consumer: string, end: 'acked' | 'retry' | 'dead_lettered', seconds: number): void {
  eventHandling.labels(event, consumer, end === 'acked' ? 'ok' : 'error').observe(seconds);
  if (end === 'acked') eventsAcked.labels(event, consumer).inc();
  else if (end === 'dead_lettered') eventsDeadLettered.labels(event, consumer).inc();
}

export type UpstreamOutcome = 'ok' | '4xx' | '5xx' | 'timeout' | 'breaker_open' | 'invalid_output';

export function observeUpstreamCall(upstream: 'youtube' | 'llm', operation: string, outcome: UpstreamOutcome, seconds: number): void {
  upstreamCalls.labels(upstream, operation, outcome).observe(seconds);
}

export function setBreakerState(upstream: 'youtube', state: keyof typeof breakerStates): void {
  breakerState.labels(upstream).set(breakerStates[state]);
}

/** Credits moved by a committed ledger line: `amount` is the line's signed change to the balance. */
export function countLedgerLine(kind: string, amount: number): void {
  if (kind === 'charge') creditsCharged.inc(-amount);
  else if (kind === 'refund') creditsRefunded.inc(amount);
}

export function countWebhookDelivery(outcome: string): void {
  webhookDeliveries.labels(outcome).inc();
}

/** One reading of a gauge read at scrape time: its label values and value. */
export interface GaugeReading {
  labels?: Record<string, string>;
  value: number;
}

const readAtScrapeSources = new Map<string, Set<() => Promise<GaugeReading[]>>>();

/**
 * A gauge whose value is read from a store when Prometheus scrapes (outbox depth, reservations
 * outstanding, jobs by status): nothing is counted on the request path. Several sources may feed
 * one gauge (each hosted service's outbox in `npm start`); each returns what it reads. A source that
 * fails is left out of that scrape. Returns the function that removes the source (a module's stop).
 */
export function readAtScrape(
  gauge: { name: string; help: string; labelNames?: string[] },
  read: () => Promise<GaugeReading[]>,
): () => void {
  const sources = readAtScrapeSources.get(gauge.name) ?? new Set<() => Promise<GaugeReading[]>>();
  if (!readAtScrapeSources.has(gauge.name)) {
    readAtScrapeSources.set(gauge.name, sources);
    new Gauge({
      ...gauge,
      labelNames: gauge.labelNames ?? [],
      registers: [metricsRegistry],
      async collect() {
        const readings = await Promise.all([...sources].map((source) => source().catch(() => [])));
        this.reset();
        for (const reading of readings.flat()) {
          if (reading.labels) this.set(reading.labels, reading.value);
          else this.set(reading.value);
        }
      },
    });
  }
  sources.add(read);
  return () => {
    sources.delete(read);
  };
}

/** `readAtScrape` of one count per status, labelled `status`. */
export function readCountsByStatus<S extends string>(
  gauge: { name: string; help: string },
  statuses: readonly S[],
  count: (status: S) => Promise<number>,
): () => void {
  return readAtScrape({ ...gauge, labelNames: ['status'] }, () =>
    Promise.all(statuses.map(async (status) => ({ labels: { status }, value: await count(status) }))),
  );
}

/** Writes the registry in Prometheus's text format (a 500 if it cannot be read: the scrape fails visibly). */
export async function sendMetrics(res: ServerResponse): Promise<void> {
  try {
    const text = await metricsRegistry.metrics();
    res.writeHead(200, { 'content-type': metricsRegistry.contentType }).end(text);
  } catch (error) {
    res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics could not be read: ${(error as Error).message}\n`);
  }
}
