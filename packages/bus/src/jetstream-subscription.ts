import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type ConsumerInfo,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import type { EventDefinition } from '@vrs/contracts';
import { consumerLabel, countDelivered, markFailed, observeHandled, requestLogFields, type Logger, type RequestContext } from '@vrs/kit';
import { redeliveryDelayMs, type BusTimings } from './bus-timings';
import { tracedProcess } from './bus-tracing';
import { decodeEnvelope } from './envelope';
import { deadLetterFor, type DeadLetter } from './dead-letter';
import type { EventHandler, Subscription } from './event-bus';
import { eventRequestContext } from './event-context';
import { createConcurrently } from './nats-servers';

/**
 * Messages pulled ahead of the ones being handled. Kept small: a message waiting in this buffer ages
 * toward its ack wait, and a replica with an empty buffer should get it instead.
 */
const prefetch = 8;
/** A per-process consumer the server has not seen pulling for this long is deleted (its process is gone). */
const perProcessInactiveMs = 60_000;
/** Pause before recreating a consumer whose messages stopped coming (consumer deleted, server error, ...). */
const restartDelayMs = 1_000;
/**
 * Stream sequences of the events this process handled and acknowledged last. An acknowledgement sent
 * just before a cluster node dies can be lost with it, and the consumer's new leader hands the event
 * out again; one found here is acknowledged again instead of handled twice.
 */
const rememberedAcks = 4_096;

export interface JetStreamSubscriptionOptions<E extends EventDefinition> {
  js: JetStreamClient;
  jsm: JetStreamManager;
  stream: string;
  /** The consumer name given to subscribe (the durable is its namespaced form). */
  consumer: string;
  durable: string;
  /** A consumer of this process alone: new events only, deleted by the server once inactive (SubscribeOptions). */
  perProcess: boolean;
  filterSubject: string;
  /** Events handled at once (SubscribeOptions.concurrency). */
  concurrency: number;
  /** Stores an event whose handler failed on its last delivery. */
  recordDeadLetter: (letter: DeadLetter) => Promise<void>;
  definition: E;
  handler: EventHandler<E>;
  timings: Required<BusTimings>;
  logger: Logger;
}

/**
 * Creates the durable pull consumer if absent (or aligns its timings) and returns its info. Several
 * replicas may race here; the server accepts identical creates, and a lost race falls back to update.
 */
async function ensureConsumer(
  options: Pick<JetStreamSubscriptionOptions<EventDefinition>, 'jsm' | 'stream' | 'durable' | 'perProcess' | 'filterSubject' | 'timings'>,
): Promise<ConsumerInfo> {
  const { jsm, stream, durable, perProcess, filterSubject, timings } = options;
  const wanted = { ack_wait: nanos(timings.ackWaitMs), max_deliver: timings.maxDeliver };
  let info = await consumerInfo(jsm, stream, durable);
  if (!info) {
    try {
      return await jsm.consumers.add(stream, {
        durable_name: durable,
        filter_subject: filterSubject,
        ack_policy: AckPolicy.Explicit,
        // A consumer created after events were published still gets them: nothing is lost to start-up order.
        // A per-process one serves state that starts empty with the process, so older events mean nothing to it.
        deliver_policy: perProcess ? DeliverPolicy.New : DeliverPolicy.All,
        ...(perProcess ? { inactive_threshold: nanos(perProcessInactiveMs) } : {}),
        ...wanted,
      });
    } catch (error) {
      info = await consumerInfo(jsm, stream, durable);
      if (!info) throw error;
    }
  }
  // The server would silently re-filter a durable to the new subject, stealing it from its other event.
  if (info.config.filter_subject !== filterSubject) {
    throw new Error(
      `Consumer ${durable} on ${stream} already consumes ${info.config.filter_subject}, not ${filterSubject}: use one consumer name per event`,
    );
  }
  if (info.config.ack_wait !== wanted.ack_wait || info.config.max_deliver !== wanted.max_deliver) {
    return jsm.consumers.update(stream, durable, wanted);
  }
  return info;
}

async function consumerInfo(jsm: JetStreamManager, stream: string, durable: string): Promise<ConsumerInfo | undefined> {
  try {
    return await jsm.consumers.info(stream, durable);
  } catch (error) {
    if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.ConsumerNotFound) return undefined;
    throw error;
  }
}

export async function startJetStreamSubscription<E extends EventDefinition>(
  options: JetStreamSubscriptionOptions<E>,
): Promise<Subscription> {
  const { js, definition, handler, timings, durable, concurrency } = options;
  const logger = options.logger.child({ consumer: durable, eventType: definition.type });
  const metricsName = consumerLabel(options.consumer, options.perProcess);
  // At start-up a cluster may still be electing a leader: the create is idempotent, so it is tried again.
  let info = await createConcurrently(() => ensureConsumer(options));
  let stopping = false;
  let messages: ConsumerMessages | undefined;
  let wakeUp: () => void = () => {};
  const inFlight = new Set<Promise<void>>();
  const handlingSeqs = new Set<number>();
  const ackedSeqs = new Set<number>();

  function rememberAck(seq: number): void {
    ackedSeqs.add(seq);
    const oldest = ackedSeqs.values().next();
    if (ackedSeqs.size > rememberedAcks && !oldest.done) ackedSeqs.delete(oldest.value);
  }

  /** Starts handling `msg` beside the others in flight; resolves once a slot is free for the next one. */
  async function dispatch(msg: JsMsg): Promise<void> {
    // A redelivery of a message this process is still handling (its ack wait ran out while it sat in
    // the buffer) must not start a second handler beside the first: the first one's ack settles it.
    if (handlingSeqs.has(msg.seq)) {
      logger.warn(
        { streamSeq: msg.seq, attempt: msg.info.deliveryCount },
        'redelivery of an event still being handled here; left to that handler',
      );
      return;
    }
    if (ackedSeqs.has(msg.seq)) {
      logger.warn(
        { streamSeq: msg.seq, attempt: msg.info.deliveryCount },
        'redelivery of an event already handled here; acknowledged again',
      );
      msg.ack();
      return;
    }
    handlingSeqs.add(msg.seq);
    const handled = handle(msg)
      .catch((error: unknown) => logger.error({ err: error, streamSeq: msg.seq }, 'event handling failed outside its handler'))
      .finally(() => {
        inFlight.delete(handled);
        handlingSeqs.delete(msg.seq);
      });
    inFlight.add(handled);
    // Waiting here, not pulling the next message, keeps what this replica cannot start yet in the
    // small buffer (or on the server for another replica) rather than in an unbounded local queue.
    while (inFlight.size >= concurrency) await Promise.race(inFlight);
  }

  async function handle(msg: JsMsg): Promise<void> {
    const decoded = decodeEnvelope(definition, msg.string());
    if (!decoded.ok) {
      // Redelivering a malformed message cannot help: terminate it so it is never retried. (term() takes no
      // reason anywhere here: nats-server 2.9 does not understand `+TERM <reason>` and leaves the message pending.)
      logger.error({ subject: msg.subject, streamSeq: msg.seq, reason: decoded.reason }, 'invalid event terminated');
      msg.term();
      return;
    }
    const { envelope } = decoded;
    const attempt = msg.info.deliveryCount;
    // Tells the server we are still at it, so a slow handler's event is not handed to another replica meanwhile.
    const keepAlive = setInterval(() => msg.working(), Math.max(timings.ackWaitMs / 2, 100));
    const untraced = eventRequestContext(envelope);
    countDelivered(definition.type, metricsName, attempt);
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    await tracedProcess(msg, durable, envelope, untraced.requestId, async (span, trace) => {
      const context = { ...untraced, trace };
      try {
        await handler(envelope, context);
        msg.ack();
        rememberAck(msg.seq);
        observeHandled(definition.type, metricsName, 'acked', seconds());
      } catch (error) {
        markFailed(span, error);
        const last = attempt >= timings.maxDeliver;
        observeHandled(definition.type, metricsName, last ? 'dead_lettered' : 'retry', seconds());
        if (last) {
          await moveToDeadLetters(msg, deadLetterFor(options.consumer, error, attempt, envelope), error, context);
        } else {
          const delayMs = redeliveryDelayMs(timings, attempt);
          logger.warn(
            { err: error, eventId: envelope.id, ...requestLogFields(context), attempt, retryInMs: delayMs },
            'event handler failed; event will be redelivered',
          );
          msg.nak(delayMs);
        }
      } finally {
        clearInterval(keepAlive);
      }
    });
  }

  async function moveToDeadLetters(msg: JsMsg, letter: DeadLetter, error: unknown, request: RequestContext): Promise<void> {
    const context = { err: error, eventId: letter.envelope.id, ...requestLogFields(request), attempt: letter.attempts };
    try {
      // Recorded before the message is terminated: a crash in between leaves the event pending, not lost.
      await options.recordDeadLetter(letter);
      logger.error(context, 'event handler failed on its last delivery; event moved to the dead letters');
    } catch (deadLetterError) {
      logger.error(
        { ...context, deadLetterError },
        'event handler failed on its last delivery and recording the dead letter failed; event dropped',
      );
    }
    msg.term();
  }

  async function consumeLoop(): Promise<void> {
    for (let restart = false; !stopping; restart = true) {
      try {
        if (restart) {
          logger.warn({ restartInMs: restartDelayMs }, 'event consumer stopped unexpectedly; restarting it');
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, restartDelayMs);
            wakeUp = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          if (stopping) return;
          info = await ensureConsumer(options);
        }
        // Aborting when the consumer vanishes (instead of the client's silent retrying) lets this loop recreate it.
        messages = await js.consumers
          .getConsumerFromInfo(info)
          .consume({ max_messages: Math.max(prefetch, concurrency), abort_on_missing_resource: true });
        // stop() may have run while consume() was being set up, before there was anything to close.
        if (stopping) await messages.close();
        for await (const msg of messages) {
          // Messages already buffered when stop() was called go straight back for another replica.
          if (stopping) msg.nak();
          else await dispatch(msg);
        }
      } catch (error) {
        if (!stopping) logger.error({ err: error }, 'consuming events failed');
      }
    }
    await Promise.all(inFlight);
  }

  const loop = consumeLoop();
  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        stopping = true;
        wakeUp();
        await messages?.close();
        await loop;
      })();
      return stopped;
    },
  };
}
