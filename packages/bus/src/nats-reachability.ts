import { connect } from '@nats-io/transport-node';
import { natsServers } from './nats-servers';

/** Whether a NATS server (any of a comma-separated list) answers at `natsUrl` within `timeoutMs` (a real protocol handshake, not just an open port). */
export async function isNatsReachable(natsUrl: string, timeoutMs = 2_000): Promise<boolean> {
  try {
    const nc = await connect({ servers: natsServers(natsUrl), timeout: timeoutMs, reconnect: false });
    await nc.close();
    return true;
  } catch {
    return false;
  }
}
