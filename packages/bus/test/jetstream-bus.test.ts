import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connect, nanos, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import type { EventDefinition } from '@vrs/contracts';
import { ensureNatsServer, uniqueNamespace, type NatsServerHandle } from '@vrs/testing/nats';
import { behaviourTimings, describeEventBusBehaviour, probeSent } from './event-bus-behaviour';
import type { EventBus } from '../src/event-bus';
import { createJetStreamBus } from '../src/jetstream-bus';
import { belongsToNamespace, durableNameFor, kvBucketNameFor, streamNameFor, subjectFor } from '../src/names';
import { deleteNamespace } from '../src/namespace-cleanup';

const poll = { timeout: 10_000, interval: 20 };
const fileNamespace = uniqueNamespace('jsbus');
let server: NatsServerHandle;
let nc: NatsConnection;
let jsm: JetStreamManager;

beforeAll(async () => {
  server = await ensureNatsServer();
  nc = await connect({ servers: server.url });
  jsm = await jetstreamManager(nc);
});

afterAll(async () => {
  await nc?.close();
  await server?.stop();
});

const spaceNamespace = (space: string) => `${fileNamespace}_${space}`;

describeEventBusBehaviour('jetstream', {
  open: (space) =>
    createJetStreamBus({ natsUrl: server.url, namespace: spaceNamespace(space), name: 'bus-test', timings: behaviourTimings }),
  cleanup: (space) => deleteNamespace(server.url, spaceNamespace(space)),
  async unsettled(space, consumer, definition) {
    const namespace = spaceNamespace(space);
    const info = await jsm.consumers.info(streamNameFor(namespace, definition.service), durableNameFor(namespace, consumer));
    return info.num_pending + info.num_ack_pending;
  },
});

describe('jetstream bus', () => {
  const namespaces: string[] = [];
  const buses: EventBus[] = [];

  async function open(label: string, timings = behaviourTimings): Promise<{ bus: EventBus; namespace: string }> {
    const namespace = `${fileNamespace}_${label}`;
    if (!namespaces.includes(namespace)) namespaces.push(namespace);
    const bus = await createJetStreamBus({ natsUrl: server.url, namespace, name: 'bus-test', timings });
    buses.push(bus);
    return { bus, namespace };
  }

  async function unsettled(namespace: string, consumer: string, definition: EventDefinition): Promise<number> {
    const info = await jsm.consumers.info(streamNameFor(namespace, definition.service), durableNameFor(namespace, consumer));
    return info.num_pending + info.num_ack_pending;
  }

  afterEach(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.close()));
    await Promise.all(namespaces.splice(0).map((namespace) => deleteNamespace(server.url, namespace)));
  });

  it('keeps namespaces apart: a consumer never sees another namespace’s events', async () => {
    const a = await open('iso_a');
    const b = await open('iso_b');
    const seenA: string[] = [];
    const seenB: string[] = [];
    await a.bus.subscribe('probe-reader', probeSent, async (event) => void seenA.push(event.data.tag));
    await b.bus.subscribe('probe-reader', probeSent, async (event) => void seenB.push(event.data.tag));

    // b publishes first: had it leaked into a's stream, a would see it before a's own events.
    await b.bus.publish(probeSent, { n: 1, tag: 'from-b' });
    await a.bus.publish(probeSent, { n: 1, tag: 'from-a' });
    await a.bus.publish(probeSent, { n: 2, tag: 'end-a' });
    await b.bus.publish(probeSent, { n: 2, tag: 'end-b' });

    await vi.waitFor(() => expect(seenA).toContain('end-a'), poll);
    await vi.waitFor(() => expect(seenB).toContain('end-b'), poll);
    expect(seenA).toEqual(['from-a', 'end-a']);
    expect(seenB).toEqual(['from-b', 'end-b']);
  });

  it('gives every per-process consumer each new event, and lets the server delete it once idle', async () => {
    const { bus, namespace } = await open('per_process');
    await bus.ensureStreams(['research']);
    await bus.publish(probeSent, { n: 0, tag: 'before' });
    const seen: Record<string, string[]> = { a: [], b: [] };
    for (const replica of ['a', 'b']) {
      await bus.subscribe(`probe-cache-${replica}`, probeSent, async (event) => void seen[replica]!.push(event.data.tag), {
        perProcess: true,
      });
    }
    await bus.publish(probeSent, { n: 1, tag: 'after' });

    // Not split between them as a shared consumer's events are, and nothing from before they started.
    await vi.waitFor(() => expect(seen).toEqual({ a: ['after'], b: ['after'] }), poll);
    const info = await jsm.consumers.info(streamNameFor(namespace, 'research'), durableNameFor(namespace, 'probe-cache-a'));
    expect(info.config.inactive_threshold).toBe(nanos(60_000));
  });

  it('terminates malformed messages instead of retrying them, and goes on with valid ones', async () => {
    const { bus, namespace } = await open('malformed');
    const seen: string[] = [];
    await bus.subscribe('probe-strict', probeSent, async (event) => void seen.push(event.data.tag));
    const js = jetstream(nc);
    const subject = subjectFor(namespace, probeSent);

    await js.publish(subject, 'not json');
    await js.publish(subject, JSON.stringify({ id: 'x', type: probeSent.type, occurredAt: 'now', data: { n: 'one' } }));
    await js.publish(subject, JSON.stringify({ id: 'y', type: 'research.other.thing', occurredAt: 'now', data: { n: 1, tag: 't' } }));
    await bus.publish(probeSent, { n: 1, tag: 'valid' });

    await vi.waitFor(() => expect(seen).toEqual(['valid']), poll);
    await vi.waitFor(async () => expect(await unsettled(namespace, 'probe-strict', probeSent)).toBe(0), poll);
    const info = await jsm.consumers.info(streamNameFor(namespace, 'research'), durableNameFor(namespace, 'probe-strict'));
    expect(info.delivered.stream_seq).toBe(4);
    expect(info.num_redelivered).toBe(0);
  });

  it('keeps a slow handler’s event to itself past the ack wait', async () => {
    const { bus, namespace } = await open('slow', { ...behaviourTimings, ackWaitMs: 1_000 });
    const deliveries: number[] = [];
    await bus.subscribe('probe-slow', probeSent, async (event) => {
      deliveries.push(event.data.n);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
    });

    await bus.publish(probeSent, { n: 1, tag: 'slow' });

    await vi.waitFor(async () => expect(await unsettled(namespace, 'probe-slow', probeSent)).toBe(0), poll);
    expect(deliveries).toEqual([1]);
  });

  it('recreates its consumer when it is deleted under it', async () => {
    const { bus, namespace } = await open('recreate');
    const seen: string[] = [];
    await bus.subscribe('probe-phoenix', probeSent, async (event) => void seen.push(event.data.tag));
    // Once an event has come through, the consumer is pulling, as a long-running one is when it gets deleted.
    await bus.publish(probeSent, { n: 0, tag: 'before-delete' });
    await vi.waitFor(() => expect(seen).toEqual(['before-delete']), poll);

    await jsm.consumers.delete(streamNameFor(namespace, 'research'), durableNameFor(namespace, 'probe-phoenix'));
    await bus.publish(probeSent, { n: 1, tag: 'after-delete' });

    // The recreated consumer starts from the stream's beginning again; the event this process already
    // handled and acknowledged is acknowledged again, not handled twice (as after a cluster node's loss).
    await vi.waitFor(() => expect(seen).toContain('after-delete'), poll);
    expect(seen).toEqual(['before-delete', 'after-delete']);
  });

  it('creates streams idempotently, also from replicas starting together', async () => {
    const first = await open('streams');
    const second = await open('streams');

    await Promise.all([first.bus.ensureStreams(['research', 'billing']), second.bus.ensureStreams(['research', 'billing', 'research'])]);
    await first.bus.ensureStreams(['research']);

    const info = await jsm.streams.info(streamNameFor(first.namespace, 'research'));
    expect(info.config.subjects).toEqual([`${first.namespace}.research.>`]);
    expect(info.config.duplicate_window).toBe(nanos(120_000));
    await jsm.streams.info(streamNameFor(first.namespace, 'billing'));
  });

  it('aligns an existing consumer with new timings', async () => {
    const first = await open('timings');
    const subscription = await first.bus.subscribe('probe-timed', probeSent, async () => {});
    await subscription.stop();
    const second = await open('timings', { ...behaviourTimings, ackWaitMs: 7_000, maxDeliver: 4 });

    await second.bus.subscribe('probe-timed', probeSent, async () => {});

    const info = await jsm.consumers.info(streamNameFor(first.namespace, 'research'), durableNameFor(first.namespace, 'probe-timed'));
    expect(info.config).toMatchObject({ ack_wait: nanos(7_000), max_deliver: 4, filter_subject: subjectFor(first.namespace, probeSent) });
  });

  it('explains a publish to a stream nobody created', async () => {
    const { bus } = await open('nostream');

    await expect(bus.publish(probeSent, { n: 1, tag: 'lost' })).rejects.toThrow(/ensureStreams\(\['research'\]\)/);
  });

  it('rejects an invalid namespace', async () => {
    await expect(createJetStreamBus({ natsUrl: server.url, namespace: 'a.b', name: 'bus-test' })).rejects.toThrow(/Invalid NATS namespace/);
  });
});

describe('deleteNamespace', () => {
  it('deletes the namespace’s streams and buckets and nothing of a namespace sharing its prefix', async () => {
    const namespace = `${fileNamespace}_del`;
    const neighbour = `${namespace}_x`;
    const buses = [
      await createJetStreamBus({ natsUrl: server.url, namespace, name: 'bus-test' }),
      await createJetStreamBus({ natsUrl: server.url, namespace: neighbour, name: 'bus-test' }),
    ];
    try {
      await Promise.all(buses.map((bus) => bus.ensureStreams(['research', 'billing'])));
      const kvm = new Kvm(nc);
      await kvm.create(kvBucketNameFor(namespace, 'counters'));
      await kvm.create(kvBucketNameFor(neighbour, 'counters'));
      const owned = async (ns: string) => {
        const names: string[] = [];
        for await (const stream of jsm.streams.list()) if (belongsToNamespace(stream.config, ns)) names.push(stream.config.name);
        return names.sort();
      };
      expect(await owned(namespace)).toHaveLength(3);

      await deleteNamespace(server.url, namespace);

      expect(await owned(namespace)).toEqual([]);
      expect(await owned(neighbour)).toEqual([`KV_${neighbour}_counters`, `${neighbour}_billing`, `${neighbour}_research`].sort());
    } finally {
      await Promise.all(buses.map((bus) => bus.close()));
      await deleteNamespace(server.url, neighbour);
      await deleteNamespace(server.url, namespace);
    }
  });
});
