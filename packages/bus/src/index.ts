export type { EventBus, EventHandler, PublishOptions, PublishResult, SubscribeOptions, Subscription } from './event-bus';
export type { DeadLetter, DeadLetterQuery, ReplayResult } from './dead-letter';
export { defaultBusTimings, type BusTimings } from './bus-timings';
export { createJetStreamBus, type JetStreamBusOptions } from './jetstream-bus';
export { createMemoryBus, type MemoryBusOptions } from './memory-bus';
export { createAnnouncer, type Announcer } from './announcer';
export { deleteNamespace } from './namespace-cleanup';
export { isNatsReachable } from './nats-reachability';
export type { WindowCount, WindowCounter } from './window-counter';
export { createKvWindowCounter, type KvWindowCounterOptions } from './kv-window-counter';
export { createMemoryWindowCounter } from './memory-window-counter';
export { createBatchedWindowCounter, type BatchedWindowCounterOptions } from './batched-window-counter';
export * from './bus-health-check';
export { eventRequestContext } from './event-context';
export {
  createOutboxRelay,
  recordOutboxEvent,
  outboxCollection,
  type OutboxDoc,
  type OutboxRelay,
  type OutboxRelayOptions,
} from './outbox';
