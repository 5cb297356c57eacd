import { randomUUID } from 'node:crypto';
import { nanos } from '@nats-io/transport-node';
import { DiscardPolicy, JetStreamApiError, RetentionPolicy, StorageType, jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { EventData, EventDefinition, ServiceName } from '@vrs/contracts';
import { countPublished, createLogger, withDeadline } from '@vrs/kit';
import { trackConnection } from './connection-state';
import { resolveBusTimings, type BusTimings } from './bus-timings';
import { tracedSend } from './bus-tracing';
import { createEnvelope } from './envelope';
import { deadLetterSchema, type DeadLetter, type DeadLetterQuery } from './dead-letter';
import {
  concurrencyOf,
  type EventBus,
  type EventHandler,
  type PublishOptions,
  type PublishResult,
  type SubscribeOptions,
  type Subscription,
} from './event-bus';
import { startJetStreamSubscription } from './jetstream-subscription';
import { assertReplicas, awaitStreamCopies, connectForever, createConcurrently } from './nats-servers';
import {
  assertNamespace,
  deadLetterStreamNameFor,
  deadLetterSubjectFor,
  deadLetterSubjectsFor,
  durableNameFor,
  streamNameFor,
  streamSubjectsFor,
  subjectFor,
} from './names';

export interface JetStreamBusOptions {
  /** One server, or a cluster's nodes separated by commas (NATS_URL). */
  natsUrl: string;
  /** Prefix of every subject, stream and consumer (e.g. NATS_NAMESPACE); unique per environment sharing a server. */
  namespace: string;
  /** Connection name shown by the server (e.g. the service name). */
  name: string;
  /**
   * Copies of every stream this bus creates, dead letters included (NATS_STREAM_REPLICAS): 1 on a
   * single server, 3 on a 3-node cluster, so a stream outlives the node holding it. A stream found with
   * another count is updated to this one.
   */
  replicas?: number;
  timings?: Partial<BusTimings>;
}

/** Stream settings that matter beyond name and subjects. */
const streamDefaults = {
  retention: RetentionPolicy.Limits,
  storage: StorageType.File,
  discard: DiscardPolicy.Old,
  // Bounds disk use on a shared server; consumers are expected to keep up well within it.
  max_age: nanos(7 * 24 * 60 * 60 * 1000),
  // Publishing the same event id again within this window is dropped by the server.
  duplicate_window: nanos(2 * 60 * 1000),
};
/** Dead letters wait for an operator, so they are kept longer than events. */
const deadLetterMaxAgeMs = 30 * 24 * 60 * 60 * 1000;
const streamConfigMismatch = 10058;
const replicasNotSupported = 10074;
const healthTimeoutMs = 2_000;

export async function createJetStreamBus(options: JetStreamBusOptions): Promise<EventBus> {
  const namespace = assertNamespace(options.namespace);
  const timings = resolveBusTimings(options.timings);
  const replicas = assertReplicas(options.replicas ?? 1);
  const logger = createLogger('bus').child({ bus: 'jetstream', namespace });
  const nc = await connectForever(options.natsUrl, options.name);
  const jsm = await jetstreamManager(nc);
  const js = jetstream(nc);
  const subscriptions = new Set<Subscription>();
  let closing: Promise<void> | undefined;

  const connection = trackConnection(nc, logger);

  function assertOpen(): void {
    if (closing) throw new Error('The event bus is closed');
  }

  async function ensureStream(service: ServiceName): Promise<void> {
    await addOrUpdateStream({ name: streamNameFor(namespace, service), subjects: streamSubjectsFor(namespace, service) });
  }

  async function ensureDeadLetterStream(): Promise<void> {
    await addOrUpdateStream({
      name: deadLetterStreamNameFor(namespace),
      subjects: deadLetterSubjectsFor(namespace),
      max_age: nanos(deadLetterMaxAgeMs),
      // Direct get reads the next message on a subject, which is how dead letters are listed without a consumer.
      allow_direct: true,
    });
  }

  async function addOrUpdateStream(stream: { name: string; subjects: string[]; max_age?: number; allow_direct?: boolean }): Promise<void> {
    const config = { ...streamDefaults, num_replicas: replicas, ...stream };
    try {
      try {
        // An identical add succeeds, so concurrent start-ups of several replicas are fine.
        await createConcurrently(() => jsm.streams.add(config));
      } catch (error) {
        if (!(error instanceof JetStreamApiError && error.code === streamConfigMismatch)) throw error;
        // Another replica count (NATS_STREAM_REPLICAS changed) included: a cluster moves the stream's copies.
        const before = await jsm.streams.info(config.name);
        await jsm.streams.update(config.name, config);
        if (before.config.num_replicas !== config.num_replicas) await awaitStreamCopies(jsm, config.name, config.num_replicas);
      }
    } catch (error) {
      if (error instanceof JetStreamApiError && error.code === replicasNotSupported) {
        throw new Error(
          `Stream ${config.name} cannot have ${replicas} replicas: the NATS server is not a cluster (set NATS_STREAM_REPLICAS=1, or run a cluster)`,
          { cause: error },
        );
      }
      throw error;
    }
  }

  /** Dead letters oldest first, with their stream sequence; unreadable ones are reported and skipped. */
  async function readDeadLetters(query: DeadLetterQuery = {}): Promise<Array<{ seq: number; letter: DeadLetter }>> {
    await ensureDeadLetterStream();
    const stream = deadLetterStreamNameFor(namespace);
    const subject = deadLetterSubjectFor(namespace, query.consumer ?? '*');
    const found: Array<{ seq: number; letter: DeadLetter }> = [];
    for (let seq = 1; query.limit === undefined || found.length < query.limit; ) {
      const stored = await jsm.direct.getMessage(stream, { seq, next_by_subj: subject });
      if (!stored) break;
      seq = stored.seq + 1;
      const parsed = deadLetterSchema.safeParse(safeJson(stored.string()));
      if (parsed.success) found.push({ seq: stored.seq, letter: parsed.data });
      else logger.error({ streamSeq: stored.seq }, 'unreadable dead letter skipped');
    }
    return found;
  }

  const bus: EventBus = {
    kind: 'jetstream',

    async publish<E extends EventDefinition>(definition: E, data: EventData<E>, publishOptions?: PublishOptions): Promise<PublishResult> {
      assertOpen();
      const envelope = createEnvelope(definition, data, publishOptions?.eventId ?? randomUUID(), publishOptions?.requestId);
      const subject = subjectFor(namespace, definition);
      try {
        const ack = await tracedSend(subject, envelope, publishOptions?.trace, (headers) =>
          js.publish(subject, JSON.stringify(envelope), headers ? { msgID: envelope.id, headers } : { msgID: envelope.id }),
        );
        countPublished(definition.type, ack.duplicate ? 'duplicate' : 'ok');
        return { eventId: envelope.id, duplicate: ack.duplicate };
      } catch (error) {
        countPublished(definition.type, 'failed');
        // Without a stream the server answers "no responders", which the client reports as "JetStream not enabled".
        throw new Error(
          `Publishing ${definition.type} to ${subject} failed (has ensureStreams(['${definition.service}']) run?): ${(error as Error).message}`,
          { cause: error },
        );
      }
    },

    async subscribe<E extends EventDefinition>(
      consumer: string,
      definition: E,
      handler: EventHandler<E>,
      subscribeOptions?: SubscribeOptions,
    ): Promise<Subscription> {
      assertOpen();
      // Consumers may start before the producer has created its stream.
      await Promise.all([ensureStream(definition.service), ensureDeadLetterStream()]);
      const subscription = await startJetStreamSubscription({
        js,
        jsm,
        stream: streamNameFor(namespace, definition.service),
        consumer,
        async recordDeadLetter(letter) {
          await js.publish(deadLetterSubjectFor(namespace, letter.consumer), JSON.stringify(letter));
        },
        durable: durableNameFor(namespace, consumer),
        perProcess: subscribeOptions?.perProcess ?? false,
        concurrency: concurrencyOf(subscribeOptions),
        filterSubject: subjectFor(namespace, definition),
        definition,
        handler,
        timings,
        logger,
      });
      subscriptions.add(subscription);
      return {
        async stop() {
          await subscription.stop();
          subscriptions.delete(subscription);
        },
      };
    },

    async deadLetters(query?: DeadLetterQuery): Promise<DeadLetter[]> {
      assertOpen();
      return (await readDeadLetters(query)).map(({ letter }) => letter);
    },

    async replayDeadLetters(query?: DeadLetterQuery) {
      assertOpen();
      const replayed: DeadLetter[] = [];
      for (const { seq, letter } of await readDeadLetters(query)) {
        // The envelope keeps its original id; the msgID names this dead letter, so the stream's dedupe window
        // (which still holds the original id of an event that died quickly) does not drop the replay, while a
        // replay interrupted between publish and delete and run again is dropped.
        await js.publish(`${namespace}.${letter.envelope.type}`, JSON.stringify(letter.envelope), {
          msgID: `${letter.envelope.id}:dead-letter:${seq}`,
        });
        await jsm.streams.deleteMessage(deadLetterStreamNameFor(namespace), seq);
        replayed.push(letter);
      }
      return { replayed };
    },

    async ensureStreams(services: ServiceName[]): Promise<void> {
      assertOpen();
      await Promise.all([...new Set(services)].map(ensureStream));
    },

    async health() {
      if (!connection.connected)
        return { ok: false, detail: nc.isClosed() ? 'NATS connection closed' : 'NATS connection lost; reconnecting' };
      try {
        await withDeadline(jsm.getAccountInfo(), healthTimeoutMs, `JetStream did not answer within ${healthTimeoutMs} ms`);
        return { ok: true };
      } catch (error) {
        return { ok: false, detail: (error as Error).message };
      }
    },

    close() {
      closing ??= (async () => {
        await Promise.all([...subscriptions].map((subscription) => subscription.stop()));
        subscriptions.clear();
        await connection.close();
      })();
      return closing;
    },
  };
  return bus;
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
