import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager, type JetStreamManager, type StreamInfo } from '@nats-io/jetstream';
import { startNatsCluster, startNatsServer, uniqueNamespace, type NatsCluster } from '@vrs/testing/nats';
import { probeSent } from './event-bus-behaviour';
import type { EventBus } from '../src/event-bus';
import { createJetStreamBus } from '../src/jetstream-bus';
import { createKvWindowCounter } from '../src/kv-window-counter';
import { deadLetterStreamNameFor, durableNameFor, kvBucketNameFor, streamNameFor } from '../src/names';
import { isNatsReachable } from '../src/nats-reachability';
import { deleteNamespace } from '../src/namespace-cleanup';

// A private 3-node cluster, never the shared server: this test kills one of its nodes.
const events = 400;
const killAfterAcks = 120;
const publishersInFlight = 8;
/** Short, so an acknowledgement lost in the failover would show as a redelivery while the test still watches. */
const ackWaitMs = 4_000;
/** Generous: the machine is loaded, and a cluster that never recovers fails here rather than hanging. */
const recoveryDeadlineMs = 120_000;

let cluster: NatsCluster;
let nc: NatsConnection;
let jsm: JetStreamManager;
const namespace = uniqueNamespace('cluster');
const stream = streamNameFor(namespace, 'research');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  cluster = await startNatsCluster(3);
  nc = await connect({ servers: cluster.nodes.map((node) => node.url), maxReconnectAttempts: -1 });
  jsm = await jetstreamManager(nc);
}, 180_000);

afterAll(async () => {
  await nc?.close();
  await cluster?.stop();
});

async function streamInfo(): Promise<StreamInfo> {
  return jsm.streams.info(stream);
}

describe('jetstream bus on a 3-node cluster with replicas 3', () => {
  let bus: EventBus | undefined;
  afterAll(async () => {
    await bus?.close();
  });

  it('keeps publishing when the node leading the stream is killed, and delivers every acknowledged event exactly once', async () => {
    // NATS_URL's form: every node, comma-separated.
    bus = await createJetStreamBus({ natsUrl: cluster.url, namespace, name: 'cluster-test', replicas: 3, timings: { ackWaitMs } });
    const deliveries = new Map<string, number>();
    await bus.subscribe('cluster-reader', probeSent, async (event) => {
      deliveries.set(event.id, (deliveries.get(event.id) ?? 0) + 1);
    });
    const before = await streamInfo();
    expect(before.config.num_replicas).toBe(3);
    expect(before.cluster?.replicas).toHaveLength(2);
    const leader = cluster.node(before.cluster!.leader!);

    const ackedAt = new Map<string, number>();
    let duplicates = 0;
    let failedAttempts = 0;
    let killedAt: number | undefined;
    let killing: Promise<void> | undefined;
    let firstAckStartedAfterKill: number | undefined;
    let next = 0;
    const started = Date.now();

    /** Publishes event `i` until the cluster acknowledges it, always with the same id, as the outbox relay does. */
    async function publishUntilAcked(i: number): Promise<void> {
      const eventId = `cluster-event-${i}`;
      while (Date.now() - started < recoveryDeadlineMs) {
        const attemptStarted = Date.now();
        try {
          const result = await bus!.publish(probeSent, { n: i, tag: 'load' }, { eventId });
          const now = Date.now();
          if (result.duplicate) duplicates++;
          ackedAt.set(eventId, now);
          if (killedAt !== undefined && attemptStarted >= killedAt) firstAckStartedAfterKill ??= now;
          return;
        } catch {
          failedAttempts++;
          await sleep(200);
        }
      }
    }

    async function publisher(): Promise<void> {
      for (let i = next++; i < events; i = next++) {
        await publishUntilAcked(i);
        if (ackedAt.size >= killAfterAcks && !killing) {
          killedAt = Date.now();
          killing = leader.kill();
        }
      }
    }

    await Promise.all(Array.from({ length: publishersInFlight }, publisher));
    await killing;
    const finishedAt = Date.now();
    expect(killedAt).toBeDefined();
    // Every event acknowledged while the old leader is still dead: the stream moved to another node.
    expect(leader.running).toBe(false);
    expect(ackedAt.size).toBe(events);
    const after = await streamInfo();
    expect(after.cluster?.leader).toBeDefined();
    expect(after.cluster?.leader).not.toBe(leader.name);
    // Publications retried across the failover were dropped by the msgID dedupe: one message per event.
    expect(after.state.messages).toBe(events);

    const gapMs = (firstAckStartedAfterKill ?? finishedAt) - killedAt!;
    const acks = [...ackedAt.values()].sort((a, b) => a - b);
    const longestPauseMs = Math.max(...acks.slice(1).map((at, i) => at - acks[i]!));
    console.info(
      `[cluster] killed ${leader.name} (stream leader) after ${killAfterAcks} acks; new leader ${after.cluster?.leader}; ` +
        `first publish started after the kill acknowledged ${gapMs} ms after it; longest pause between acks ${longestPauseMs} ms; ` +
        `${failedAttempts} failed attempts retried, ${duplicates} dropped as duplicates; ${events} events in ${finishedAt - started} ms`,
    );

    await vi.waitFor(() => expect(deliveries.size).toBe(events), { timeout: recoveryDeadlineMs, interval: 100 });
    // Longer than the ack wait: an acknowledgement lost in the failover would be redelivered by now.
    await sleep(ackWaitMs * 2.5);
    const repeated = [...deliveries].filter(([, count]) => count !== 1);
    expect(repeated).toEqual([]);
    expect([...deliveries.keys()].sort()).toEqual([...ackedAt.keys()].sort());

    // The killed node comes back and catches up: three current copies again.
    await leader.restart();
    await vi.waitFor(
      async () => {
        const info = await streamInfo();
        expect(info.cluster?.replicas?.filter((replica) => replica.current)).toHaveLength(2);
      },
      { timeout: recoveryDeadlineMs, interval: 500 },
    );
  }, 480_000);

  it('moves streams, dead letters and KV buckets made with another replica count to the setting', async () => {
    const scaled = uniqueNamespace('scale');
    const open = (replicas: number) => createJetStreamBus({ natsUrl: cluster.url, namespace: scaled, name: 'scale-test', replicas });
    const replicasOf = async (name: string) => (await jsm.streams.info(name)).config.num_replicas;
    const bucket = `KV_${kvBucketNameFor(scaled, 'window-counters')}`;
    try {
      const one = await open(1);
      await one.ensureStreams(['research']);
      await one.deadLetters();
      // A durable consumer made on the one-copy stream.
      await (await one.subscribe('scale-reader', probeSent, async () => {})).stop();
      await (await createKvWindowCounter({ natsUrl: cluster.url, namespace: scaled, replicas: 1 })).close();
      await one.close();
      expect(await replicasOf(streamNameFor(scaled, 'research'))).toBe(1);
      expect(await replicasOf(bucket)).toBe(1);

      const three = await open(3);
      await three.ensureStreams(['research']);
      await three.deadLetters();
      const counter = await createKvWindowCounter({ natsUrl: cluster.url, namespace: scaled, replicas: 3 });
      await counter.increment('someone', 60_000);
      await counter.close();
      await three.close();
      expect(await replicasOf(streamNameFor(scaled, 'research'))).toBe(3);
      expect(await replicasOf(deadLetterStreamNameFor(scaled))).toBe(3);
      expect(await replicasOf(bucket)).toBe(3);
      // Its consumers follow the stream: three copies of where each stands.
      await vi.waitFor(
        async () => {
          const consumer = await jsm.consumers.info(streamNameFor(scaled, 'research'), durableNameFor(scaled, 'scale-reader'));
          expect(consumer.cluster?.replicas).toHaveLength(2);
        },
        { timeout: 30_000, interval: 250 },
      );
    } finally {
      await deleteNamespace(cluster.url, scaled);
    }
  }, 120_000);
});

describe('a list of servers whose first is down', () => {
  it('reaches the cluster through the others', async () => {
    const deadFirst = `nats://127.0.0.1:1,${cluster.url}`;
    expect(await isNatsReachable(deadFirst)).toBe(true);
    expect(await isNatsReachable('nats://127.0.0.1:1')).toBe(false);
    const bus = await createJetStreamBus({ natsUrl: deadFirst, namespace: uniqueNamespace('list'), name: 'list-test', replicas: 3 });
    expect(await bus.health()).toEqual({ ok: true });
    await bus.close();
  }, 60_000);
});

describe('replicas on a single server', () => {
  it('refuses more than one replica with a message naming the setting', async () => {
    const server = await startNatsServer();
    try {
      const bus = await createJetStreamBus({ natsUrl: server.url, namespace: uniqueNamespace('single'), name: 'single-test', replicas: 3 });
      await expect(bus.ensureStreams(['research'])).rejects.toThrow(/not a cluster \(set NATS_STREAM_REPLICAS=1/);
      await bus.close();
    } finally {
      await server.stop();
    }
  }, 60_000);
});
