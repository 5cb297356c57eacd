import type { EventData, EventDefinition } from '@vrs/contracts';
import { readAtScrape, traceCarrierOf, type Logger, type RequestContext, type TraceCarrier } from '@vrs/kit';
import { expiresAt, expiryIndex, type Collection, type Store, type StoreDocument, type StoreScope } from '@vrs/store';
import { createEnvelope } from './envelope';
import type { EventBus } from './event-bus';

/** An event written with the change that caused it, waiting for the relay to publish it (ADR 0030). */
export interface OutboxDoc extends StoreDocument {
  /** The event id, published as the JetStream msgID: a second publication is dropped by the server. */
  _id: string;
  type: string;
  data: unknown;
  requestId?: string;
  /** The trace context of the write that recorded it, with tracing on: its publication joins that trace. */
  trace?: TraceCarrier;
  status: 'pending' | 'sent';
  createdAt: string;
  sentAt?: string;
  /** Set when sent: the row is kept a while for inspection, then the service's retention sweeper deletes it. */
  expiresAt?: string;
}

export const outboxCollection = 'outbox';
/** Outbox rows published per query; the relay loops until none is pending. */
const batchSize = 100;

/**
 * Records `data` as an event to publish, through `tx`, so it commits with the write it announces (or
 * neither does). The payload is validated now, as a direct publish would. `request` is the request
 * that caused it: its id is published with it, and its trace context stored, so the publication joins
 * its trace.
 */
export async function recordOutboxEvent<E extends EventDefinition>(
  tx: StoreScope,
  definition: E,
  data: EventData<E>,
  eventId: string,
  request?: RequestContext,
) {
  const envelope = createEnvelope(definition, data, eventId, request?.requestId);
  const trace = traceCarrierOf(request?.trace);
  const doc: OutboxDoc = {
    _id: envelope.id,
    type: envelope.type,
    data: envelope.data,
    ...(envelope.requestId ? { requestId: envelope.requestId } : {}),
    ...(trace ? { trace } : {}),
    status: 'pending',
    createdAt: envelope.occurredAt,
  };
  await tx.collection<OutboxDoc>(outboxCollection).insertOne(doc);
}

export interface OutboxRelayOptions {
  store: Store;
  bus: EventBus;
  /** Every event this service writes to its outbox. */
  definitions: EventDefinition[];
  logger: Logger;
  /** Pause before trying again after a publish failed (NATS unreachable, ...). */
  retryDelayMs?: number;
  /** How long a sent row is kept before retention deletes it; 24 h unless given. */
  sentTtlMs?: number;
  /** Milliseconds since the epoch; tests inject one to move time. */
  clock?: () => number;
}

export interface OutboxRelay {
  /** Publishes what is pending (events written before a crash included) and keeps doing so on each `notify`. */
  start(): Promise<void>;
  /** Something was just recorded: publish it now rather than at the next retry. */
  notify(): void;
  /** Resolves once the publication in progress is finished; nothing more is published. */
  stop(): Promise<void>;
  /** The collection whose sent rows expire, for the service's retention sweeper. */
  expiring: Record<string, Collection<OutboxDoc>>;
}

/**
 * Publishes pending outbox events with msgID = event id and marks them sent. A failed publish is
 * retried after `retryDelayMs` until it succeeds; a row published but not yet marked (a crash between
 * the two) is published again and dropped by JetStream's dedupe window, or delivered twice past it,
 * which idempotent handlers allow.
 */
export function createOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const { store, bus, logger } = options;
  const retryDelayMs = options.retryDelayMs ?? 1_000;
  const sentTtlMs = options.sentTtlMs ?? 24 * 60 * 60_000;
  const clock = options.clock ?? Date.now;
  const definitions = new Map(options.definitions.map((definition) => [definition.type, definition]));
  const outbox = store.collection<OutboxDoc>(outboxCollection);
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = true;
  let retryTimer: NodeJS.Timeout | undefined;

  async function drain(): Promise<void> {
    for (;;) {
      const pending = await outbox.find({ status: 'pending' }, { sort: { createdAt: 1, _id: 1 }, limit: batchSize });
      for (const doc of pending) {
        if (stopped) return;
        const definition = definitions.get(doc.type);
        if (!definition) throw new Error(`Outbox event ${doc._id} has type ${doc.type}, which this relay does not publish`);
        // The envelope carries the request id (and the trace) of the write that recorded it, as a direct publish would.
        await bus.publish(definition, doc.data as EventData<EventDefinition>, {
          eventId: doc._id,
          requestId: doc.requestId,
          trace: doc.trace,
        });
        const sentAt = clock();
        await outbox.updateOne(
          { _id: doc._id },
          { $set: { status: 'sent', sentAt: new Date(sentAt).toISOString(), expiresAt: expiresAt(sentAt, sentTtlMs) } },
        );
      }
      if (pending.length < batchSize) return;
    }
  }

  function run(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    clearTimeout(retryTimer);
    running = (async () => {
      do {
        again = false;
        try {
          await drain();
        } catch (error) {
          logger.warn({ err: error, retryInMs: retryDelayMs }, 'publishing outbox events failed; retrying');
          if (!stopped) retryTimer = setTimeout(run, retryDelayMs);
          return;
        }
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
    });
  }

  // Read when Prometheus scrapes, through the index the relay reads by.
  const labels = { service: options.definitions[0]?.service ?? 'unknown' };
  const pendingCount = async () => [{ labels, value: await outbox.countDocuments({ status: 'pending' }) }];
  const oldestPendingAge = async () => {
    const [oldest] = await outbox.find({ status: 'pending' }, { sort: { createdAt: 1, _id: 1 }, limit: 1 });
    return [{ labels, value: oldest ? Math.max(0, (clock() - Date.parse(oldest.createdAt)) / 1000) : 0 }];
  };
  let unwatch: (() => void)[] = [];

  return {
    async start() {
      stopped = false;
      await outbox.createIndexes([{ key: { status: 1, createdAt: 1 }, name: 'pending_oldest_first' }, expiryIndex]);
      unwatch = [
        readAtScrape(
          { name: 'vrs_outbox_pending', help: 'Outbox events recorded but not yet published, by service.', labelNames: ['service'] },
          pendingCount,
        ),
        readAtScrape(
          {
            name: 'vrs_outbox_oldest_pending_age_seconds',
            help: 'Age of the oldest outbox event not yet published, by service (0 when none is pending).',
            labelNames: ['service'],
          },
          oldestPendingAge,
        ),
      ];
      run();
    },
    notify: run,
    expiring: { [outboxCollection]: outbox },
    async stop() {
      stopped = true;
      for (const remove of unwatch) remove();
      clearTimeout(retryTimer);
      await running;
    },
  };
}
