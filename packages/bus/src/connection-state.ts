import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '@vrs/kit';

/**
 * Follows a connection's status, so callers can tell "connected" from "reconnecting" without a
 * round trip, and shut down without waiting on a drain that cannot reach the server.
 */
export function trackConnection(nc: NatsConnection, logger?: Logger) {
  let connected = true;
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type !== 'disconnect' && status.type !== 'reconnect') continue;
      connected = status.type === 'reconnect';
      logger?.warn({ status: status.type }, 'NATS connection status changed');
    }
  })();
  return {
    get connected() {
      return connected && !nc.isClosed();
    },
    /** Drains (delivering what is in flight) while connected; otherwise closes at once. */
    async close(): Promise<void> {
      if (nc.isClosed()) return;
      if (connected) await nc.drain();
      else await nc.close();
    },
  };
}
