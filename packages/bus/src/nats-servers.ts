import { JetStreamApiError, type JetStreamManager } from '@nats-io/jetstream';
import { connect, NoRespondersError, TimeoutError, type NatsConnection } from '@nats-io/transport-node';

/**
 * The servers of a NATS_URL: one URL, or a comma-separated list of a cluster's nodes. The client gets
 * them as a list, so it connects to whichever answers and fails over to another when its node dies; a
 * single string holding commas would be taken as one (unreachable) server.
 */
export function natsServers(natsUrl: string): string[] {
  const servers = natsUrl
    .split(',')
    .map((server) => server.trim())
    .filter(Boolean);
  if (servers.length === 0) throw new Error(`NATS_URL ${JSON.stringify(natsUrl)} names no server`);
  return servers;
}

/**
 * Reconnects forever: a broker restart must not take the services down with it. No async traces:
 * the client would build an Error, with its stack, for every publish and request (ADR 0072).
 */
export function connectForever(natsUrl: string, name: string): Promise<NatsConnection> {
  return connect({ servers: natsServers(natsUrl), name, maxReconnectAttempts: -1, noAsyncTraces: true });
}

/** Replicas of every stream and KV bucket: 1 on a single server, up to the cluster's size (3 or 5) on a cluster. */
export function assertReplicas(replicas: number): number {
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > 5) {
    throw new Error(`Invalid NATS stream replicas ${replicas}: an integer from 1 to 5 (JetStream's limit)`);
  }
  return replicas;
}

/**
 * After a stream's replica count changed, waits until it has a leader and every other copy is current:
 * writes meanwhile meet a stream without a leader ("no responders"). No-op on a single server.
 */
export async function awaitStreamCopies(jsm: JetStreamManager, stream: string, replicas: number, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const info = await jsm.streams.info(stream).catch(() => undefined);
    const placement = info?.cluster;
    if (info && !placement) return;
    const current = placement?.replicas?.filter((replica) => replica.current).length ?? 0;
    if (placement?.leader && current === replicas - 1) return;
    if (Date.now() > deadline) {
      throw new Error(`Stream ${stream} has no leader with ${replicas - 1} current copies after ${timeoutMs} ms of changing its replicas`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** "subjects overlap with an existing stream": what a server can answer the loser of two identical creates. */
const subjectsOverlap = 10065;

/** What a create may meet for a moment and then not: a race with an identical create, or a cluster between leaders. */
function isPassing(error: unknown): boolean {
  if (error instanceof JetStreamApiError) return error.code === subjectsOverlap;
  return error instanceof TimeoutError || error instanceof NoRespondersError;
}

/**
 * Runs an idempotent stream (or KV bucket) create, again when it met something that passes (up to
 * `attempts` times): "subjects overlap", which nats-server can answer to one of two replicas creating
 * the same stream at the same moment; no answer in time, or no responder, from a cluster still
 * electing its leader. Once the winner's stream exists, or the cluster has a leader, the same create
 * succeeds; a real overlap with another stream fails every attempt and is thrown, as is anything else.
 */
export async function createConcurrently<T>(create: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await create();
    } catch (error) {
      if (!isPassing(error) || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}
