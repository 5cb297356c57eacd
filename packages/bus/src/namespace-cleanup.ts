import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { assertNamespace, belongsToNamespace } from './names';
import { natsServers } from './nats-servers';

/**
 * Deletes every stream (with its consumers) and KV bucket this package created for `namespace`, so a
 * test run leaves the shared server as it found it.
 */
export async function deleteNamespace(natsUrl: string, namespace: string): Promise<void> {
  assertNamespace(namespace);
  const nc = await connect({ servers: natsServers(natsUrl), name: `delete namespace ${namespace}` });
  try {
    const jsm = await jetstreamManager(nc);
    const doomed: string[] = [];
    for await (const stream of jsm.streams.list()) {
      if (belongsToNamespace(stream.config, namespace)) doomed.push(stream.config.name);
    }
    await Promise.all(doomed.map((name) => jsm.streams.delete(name)));
  } finally {
    await nc.close();
  }
}
