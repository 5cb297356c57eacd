import { createJetStreamBus, deleteNamespace, type BusTimings, type EventBus } from '@vrs/bus';
import { ensureNatsServer, uniqueNamespace } from './nats';

/**
 * A JetStream bus on the machine's nats-server (NATS_URL, else 127.0.0.1:4222, else a private server
 * started here) in a namespace of its own, so tests running side by side — and other runs on the same
 * server — never see each other's events. Closing it deletes the namespace's streams and consumers.
 */
export async function openTestBus(label: string, timings?: Partial<BusTimings>): Promise<EventBus> {
  const nats = await ensureNatsServer();
  const namespace = uniqueNamespace(label.slice(0, 8));
  const bus = await createJetStreamBus({ natsUrl: nats.url, namespace, name: `test ${label}`, timings });
  const close = bus.close.bind(bus);
  return Object.assign(bus, {
    async close() {
      await close();
      await deleteNamespace(nats.url, namespace);
      await nats.stop();
    },
  });
}
