import type { EventData, EventDefinition } from '@vrs/contracts';
import type { EventBus, PublishOptions } from './event-bus';

/**
 * Publishes events whose outcome never changes the caller's answer (a fetched version, a generated
 * report) beside that answer rather than before it: waiting for JetStream's ack put a NATS round
 * trip between a trend report's dependent upstream calls (ADR 0040). A failed publication goes to
 * `whenLost`, never to the caller. `settled()` waits for those still in flight (a module's stop,
 * before its host closes the bus).
 */
export function createAnnouncer(bus: EventBus) {
  const inFlight = new Set<Promise<void>>();
  return {
    announce<E extends EventDefinition>(
      definition: E,
      data: EventData<E>,
      whenLost: (error: unknown) => void,
      options?: PublishOptions,
    ): void {
      const sending = bus.publish(definition, data, options).then(() => undefined, whenLost);
      inFlight.add(sending);
      void sending.finally(() => inFlight.delete(sending));
    },

    /** Resolves once every announcement made so far was published or handed to its `whenLost`. */
    async settled(): Promise<void> {
      await Promise.all(inFlight);
    },
  };
}

export type Announcer = ReturnType<typeof createAnnouncer>;
