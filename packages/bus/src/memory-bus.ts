import { randomUUID } from 'node:crypto';
import type { EventData, EventDefinition, ServiceName } from '@vrs/contracts';
import {
  consumerLabel,
  countDelivered,
  countPublished,
  createLogger,
  observeHandled,
  requestLogFields,
  traceContextOf,
  type TraceContext,
} from '@vrs/kit';
import { redeliveryDelayMs, resolveBusTimings, type BusTimings } from './bus-timings';
import { createEnvelope, decodeEnvelope } from './envelope';
import { deadLetterFor, type DeadLetter, type DeadLetterQuery } from './dead-letter';
import {
  concurrencyOf,
  type EventBus,
  type EventHandler,
  type PublishOptions,
  type PublishResult,
  type SubscribeOptions,
  type Subscription,
} from './event-bus';
import { eventRequestContext } from './event-context';
import { assertConsumerName } from './names';

export interface MemoryBusOptions {
  /** Only the redelivery settings apply in process (there is no ack wait to miss). */
  timings?: Partial<BusTimings>;
  /** How long a published event id is remembered to drop duplicates; JetStream's default window. */
  dedupeWindowMs?: number;
}

interface Delivery {
  /** The envelope as JSON, so handlers get the same fresh copy a JetStream consumer would. */
  raw: string;
  attempts: number;
  /** The publishing request's trace context, with tracing on: the handler continues it (no spans of its own: no headers in process). */
  trace?: TraceContext;
}

interface Member {
  definition: EventDefinition;
  handler: EventHandler<EventDefinition>;
  /** Events handled at once (SubscribeOptions.concurrency). */
  concurrency: number;
  inFlight: Set<Promise<void>>;
}

/** One named consumer: its queue survives its members, like a durable consumer on the server. */
interface ConsumerGroup {
  consumer: string;
  /** The consumer's name in metrics (`consumerLabel`). */
  metricsName: string;
  type: string;
  queue: Delivery[];
  members: Member[];
  nextMember: number;
}

/**
 * The in-process bus of `npm start`'s single-process mode, with the JetStream bus's semantics where they
 * make sense in one process: validation, dedupe by event id, shared consumers, redelivery with backoff.
 * Events are not persisted, and an event published before any consumer of its kind exists is not kept.
 */
export function createMemoryBus(options: MemoryBusOptions = {}): EventBus {
  const timings = resolveBusTimings(options.timings);
  const dedupeWindowMs = options.dedupeWindowMs ?? 2 * 60 * 1000;
  const logger = createLogger('bus').child({ bus: 'memory' });
  /** Event id -> when it may be published again; insertion order is expiry order. */
  const seenEventIds = new Map<string, number>();
  const groups = new Map<string, ConsumerGroup>();
  const retryTimers = new Set<NodeJS.Timeout>();
  /** Kept in process only, as everything else here; oldest first. */
  let deadLetters: DeadLetter[] = [];
  let closing: Promise<void> | undefined;

  function assertOpen(): void {
    if (closing) throw new Error('The event bus is closed');
  }

  function forgetExpiredIds(now: number): void {
    for (const [id, expiresAt] of seenEventIds) {
      if (expiresAt > now) return;
      seenEventIds.delete(id);
    }
  }

  function pump(group: ConsumerGroup): void {
    while (group.queue.length > 0) {
      const member = takeIdleMember(group);
      if (!member) return;
      const delivery = group.queue.shift();
      if (delivery) deliver(group, member, delivery);
    }
  }

  /** Round-robin over members with a free slot, so subscriptions sharing a consumer name split the work. */
  function takeIdleMember(group: ConsumerGroup): Member | undefined {
    for (let i = 0; i < group.members.length; i++) {
      const index = (group.nextMember + i) % group.members.length;
      const member = group.members[index];
      if (member && member.inFlight.size < member.concurrency) {
        group.nextMember = index + 1;
        return member;
      }
    }
    return undefined;
  }

  function deliver(group: ConsumerGroup, member: Member, delivery: Delivery): void {
    delivery.attempts += 1;
    // Marked busy before the handler starts, and started after publish() returns, as over the network.
    const handled: Promise<void> = Promise.resolve()
      .then(() => handle(group, member, delivery))
      .finally(() => {
        member.inFlight.delete(handled);
        pump(group);
      });
    member.inFlight.add(handled);
  }

  async function handle(group: ConsumerGroup, member: Member, delivery: Delivery): Promise<void> {
    const decoded = decodeEnvelope(member.definition, delivery.raw);
    if (!decoded.ok) {
      logger.error({ eventType: group.type, reason: decoded.reason }, 'invalid event dropped');
      return;
    }
    const { envelope } = decoded;
    const context = { ...eventRequestContext(envelope), trace: delivery.trace };
    countDelivered(group.type, group.metricsName, delivery.attempts);
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      await member.handler(envelope, context);
      observeHandled(group.type, group.metricsName, 'acked', seconds());
    } catch (error) {
      const last = delivery.attempts >= timings.maxDeliver;
      observeHandled(group.type, group.metricsName, last ? 'dead_lettered' : 'retry', seconds());
      if (last) {
        logger.error(
          { err: error, eventId: envelope.id, ...requestLogFields(context), attempt: delivery.attempts },
          'event handler failed on its last delivery; event moved to the dead letters',
        );
        deadLetters.push(deadLetterFor(group.consumer, error, delivery.attempts, envelope));
        return;
      }
      const delayMs = redeliveryDelayMs(timings, delivery.attempts);
      logger.warn(
        { err: error, eventId: envelope.id, ...requestLogFields(context), attempt: delivery.attempts, retryInMs: delayMs },
        'event handler failed; event will be redelivered',
      );
      const timer = setTimeout(() => {
        retryTimers.delete(timer);
        group.queue.push(delivery);
        pump(group);
      }, delayMs);
      retryTimers.add(timer);
    }
  }

  function enqueue(type: string, raw: string, trace: TraceContext | undefined): void {
    for (const group of groups.values()) {
      if (group.type !== type) continue;
      group.queue.push({ raw, attempts: 0, trace });
      pump(group);
    }
  }

  function selectDeadLetters(query: DeadLetterQuery = {}): DeadLetter[] {
    const matching = deadLetters.filter((letter) => query.consumer === undefined || letter.consumer === query.consumer);
    return matching.slice(0, query.limit ?? matching.length);
  }

  const bus: EventBus = {
    kind: 'memory',

    async publish<E extends EventDefinition>(definition: E, data: EventData<E>, publishOptions?: PublishOptions): Promise<PublishResult> {
      assertOpen();
      const envelope = createEnvelope(definition, data, publishOptions?.eventId ?? randomUUID(), publishOptions?.requestId);
      const now = Date.now();
      forgetExpiredIds(now);
      if (seenEventIds.has(envelope.id)) {
        countPublished(definition.type, 'duplicate');
        return { eventId: envelope.id, duplicate: true };
      }
      seenEventIds.set(envelope.id, now + dedupeWindowMs);
      enqueue(definition.type, JSON.stringify(envelope), traceContextOf(publishOptions?.trace));
      countPublished(definition.type, 'ok');
      return { eventId: envelope.id, duplicate: false };
    },

    async subscribe<E extends EventDefinition>(
      consumer: string,
      definition: E,
      handler: EventHandler<E>,
      subscribeOptions?: SubscribeOptions,
    ): Promise<Subscription> {
      assertOpen();
      // Same naming rules and the same one-event-per-consumer rule as durable consumers on JetStream.
      const key = `${definition.service}/${assertConsumerName(consumer)}`;
      let group = groups.get(key);
      if (group && group.type !== definition.type) {
        throw new Error(`Consumer ${consumer} already consumes ${group.type}, not ${definition.type}: use one consumer name per event`);
      }
      if (!group) {
        group = {
          consumer,
          metricsName: consumerLabel(consumer, subscribeOptions?.perProcess),
          type: definition.type,
          queue: [],
          members: [],
          nextMember: 0,
        };
        groups.set(key, group);
      }
      const member: Member = {
        definition,
        handler: handler as EventHandler<EventDefinition>,
        concurrency: concurrencyOf(subscribeOptions),
        inFlight: new Set(),
      };
      group.members.push(member);
      const joined = group;
      pump(joined);
      let stopped: Promise<void> | undefined;
      return {
        stop() {
          stopped ??= (async () => {
            joined.members = joined.members.filter((other) => other !== member);
            await Promise.all(member.inFlight);
          })();
          return stopped;
        },
      };
    },

    async deadLetters(query?: DeadLetterQuery): Promise<DeadLetter[]> {
      return selectDeadLetters(query);
    },

    async replayDeadLetters(query?: DeadLetterQuery) {
      assertOpen();
      const replayed = selectDeadLetters(query);
      deadLetters = deadLetters.filter((letter) => !replayed.includes(letter));
      for (const letter of replayed) {
        // Past the dedupe check on purpose: the id was seen when the event was first published.
        enqueue(letter.envelope.type, JSON.stringify(letter.envelope), undefined);
      }
      return { replayed };
    },

    async ensureStreams(_services: ServiceName[]): Promise<void> {
      assertOpen();
    },

    async health() {
      return closing ? { ok: false, detail: 'event bus closed' } : { ok: true };
    },

    close() {
      closing ??= (async () => {
        for (const timer of retryTimers) clearTimeout(timer);
        retryTimers.clear();
        const inFlight: Array<Promise<void> | undefined> = [];
        for (const group of groups.values()) {
          inFlight.push(...group.members.flatMap((member) => [...member.inFlight]));
          // Emptied, so a handler finishing now finds nothing more to take.
          group.members = [];
          group.queue = [];
        }
        groups.clear();
        await Promise.all(inFlight);
      })();
      return closing;
    },
  };
  return bus;
}
