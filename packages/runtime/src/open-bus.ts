import { createJetStreamBus, createMemoryBus, isNatsReachable, type EventBus } from '@vrs/bus';
import type { BaseConfig, Logger } from '@vrs/kit';

/**
 * The event bus a process gets: JetStream whenever NATS answers. Only `npm start`'s single process
 * may fall back to an in-process bus, and it says so loudly; every other mode fails with a hint.
 */
export async function openBus(
  config: BaseConfig,
  options: { name: string; allowMemoryFallback: boolean; logger: Logger },
): Promise<EventBus> {
  const timings = { ackWaitMs: config.BUS_ACK_WAIT_MS, maxDeliver: config.BUS_MAX_DELIVER };
  if (await isNatsReachable(config.NATS_URL)) {
    const bus = await createJetStreamBus({
      natsUrl: config.NATS_URL,
      namespace: config.NATS_NAMESPACE,
      name: options.name,
      replicas: config.NATS_STREAM_REPLICAS,
      timings,
    });
    options.logger.info(
      { natsUrl: config.NATS_URL, namespace: config.NATS_NAMESPACE, replicas: config.NATS_STREAM_REPLICAS },
      'event bus: NATS JetStream',
    );
    return bus;
  }
  if (!options.allowMemoryFallback) {
    throw new Error(`NATS is not reachable at ${config.NATS_URL}: start nats-server with JetStream (nats-server -js) or set NATS_URL.`);
  }
  options.logger.warn(
    { natsUrl: config.NATS_URL },
    'event bus: NATS not reachable, using the IN-PROCESS bus (single-process mode only; events do not survive a restart)',
  );
  return createMemoryBus({ timings });
}
