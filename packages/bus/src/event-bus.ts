import type { EventData, EventDefinition, EventEnvelope, ServiceName } from '@vrs/contracts';
import type { RequestContext, TraceCarrier, TraceContext } from '@vrs/kit';
import type { DeadLetter, DeadLetterQuery, ReplayResult } from './dead-letter';

export interface PublishOptions {
  /** Defaults to a random UUID. Sent as the JetStream msgID, so a republished id is dropped by the server. */
  eventId?: string;
  /** The request that caused the event: its handlers' logs and calls carry it (`eventRequestContext`). */
  requestId?: string;
  /**
   * Where the request that caused the event is in its trace: its context for a direct publish, the
   * carrier an outbox event stored when published after that request (ADRs 0102, 0117). Absent, the
   * publication starts a trace of its own.
   */
  trace?: TraceContext | TraceCarrier;
}

export interface PublishResult {
  eventId: string;
  /** True when an event with this id was already published within the dedupe window (nothing was stored). */
  duplicate: boolean;
}

/**
 * Handlers must be idempotent: an event can be delivered more than once (redelivery, replicas).
 * `context` carries the originating request's id (see `eventRequestContext`).
 */
export type EventHandler<E extends EventDefinition> = (event: EventEnvelope<EventData<E>>, context: RequestContext) => Promise<void>;

export interface SubscribeOptions {
  /**
   * A consumer for this process alone (give it a name no other process uses): it gets only events
   * published from now on, and the server deletes it once it has been inactive a minute (the
   * process is gone). For state each replica keeps for itself, such as caches to drop.
   */
  perProcess?: boolean;
  /**
   * Events this subscription handles at once (default 1: one after another, in delivery order). Above
   * 1, handlers overlap and finish out of order; each event is still acked only once its handler
   * succeeded, so redelivery and dead letters are unchanged. Only for handlers whose events are
   * independent of each other (ADR 0038 lists which consumers qualify).
   */
  concurrency?: number;
}

export interface Subscription {
  /** Stops taking new events and resolves once the events being handled are finished. */
  stop(): Promise<void>;
}

export interface EventBus {
  readonly kind: 'jetstream' | 'memory';
  /** Validates `data` with the definition's schema (throws when invalid) and publishes it in an envelope. */
  publish<E extends EventDefinition>(definition: E, data: EventData<E>, options?: PublishOptions): Promise<PublishResult>;
  /**
   * Durable, shared subscription: subscriptions with the same consumer name (in any process) split the
   * events between them. Use one consumer name per event kind.
   */
  subscribe<E extends EventDefinition>(
    consumer: string,
    definition: E,
    handler: EventHandler<E>,
    options?: SubscribeOptions,
  ): Promise<Subscription>;
  /** Events whose handler failed on every delivery (each is recorded there instead of being dropped), oldest first. */
  deadLetters(query?: DeadLetterQuery): Promise<DeadLetter[]>;
  /**
   * Republishes dead letters with their original event ids (every consumer of the event gets it again, as
   * handlers are idempotent) and removes each once republished.
   */
  replayDeadLetters(query?: DeadLetterQuery): Promise<ReplayResult>;
  /** Idempotent; each producing service calls it at start-up for its own stream. */
  ensureStreams(services: ServiceName[]): Promise<void>;
  health(): Promise<{ ok: boolean; detail?: string }>;
  /** Drains: handlers in flight finish, then the connection closes. Safe to call twice. */
  close(): Promise<void>;
}

/** The subscription's concurrency, checked: a positive integer, 1 when not given. */
export function concurrencyOf(options: SubscribeOptions | undefined): number {
  const concurrency = options?.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new Error(`Subscription concurrency must be an integer >= 1, not ${concurrency}`);
  return concurrency;
}
