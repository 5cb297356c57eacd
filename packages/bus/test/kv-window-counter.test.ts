import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { ensureNatsServer, uniqueNamespace, type NatsServerHandle } from '@vrs/testing/nats';
import { createKvWindowCounter } from '../src/kv-window-counter';
import { kvBucketNameFor } from '../src/names';
import { deleteNamespace } from '../src/namespace-cleanup';
import { dayMs, describeWindowCounterBehaviour } from './window-counter-behaviour';

const namespace = uniqueNamespace('kvcount');
let server: NatsServerHandle;

beforeAll(async () => {
  server = await ensureNatsServer();
});

afterAll(async () => {
  await deleteNamespace(server.url, namespace);
  await server?.stop();
});

describeWindowCounterBehaviour('nats kv', () => createKvWindowCounter({ natsUrl: server.url, namespace, maxWindowMs: dayMs }));

describe('kv window counter', () => {
  it('counts 50 concurrent hits from two connections exactly', async () => {
    const open = () => createKvWindowCounter({ natsUrl: server.url, namespace, bucket: 'shared', maxWindowMs: dayMs });
    const replicas = await Promise.all([open(), open()]);
    try {
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => replicas[i % 2 === 0 ? 0 : 1].increment('account acc_1', dayMs)),
      );

      expect(results.map((result) => result.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      expect((await replicas[0].increment('account acc_1', dayMs)).count).toBe(51);
    } finally {
      await Promise.all(replicas.map((replica) => replica.close()));
    }
  });

  it('works on a connection it is given, and leaves it open', async () => {
    const nc = await connect({ servers: server.url });
    try {
      const counter = await createKvWindowCounter({ connection: nc, namespace, bucket: 'given' });
      expect((await counter.increment('k', 60_000)).count).toBe(1);
      await counter.close();
      expect(nc.isClosed()).toBe(false);
    } finally {
      await nc.close();
    }
  });

  it('refuses windows longer than the bucket keeps entries', async () => {
    const counter = await createKvWindowCounter({ natsUrl: server.url, namespace, bucket: 'short', maxWindowMs: 60_000 });
    try {
      await expect(counter.increment('k', 120_000)).rejects.toThrow(/exceeds the 60000 ms TTL/);
    } finally {
      await counter.close();
    }
  });

  it('names its bucket after the namespace, with a TTL of the longest window', async () => {
    const counter = await createKvWindowCounter({ natsUrl: server.url, namespace, bucket: 'named', maxWindowMs: 90_000 });
    const nc = await connect({ servers: server.url });
    try {
      const info = await (await jetstreamManager(nc)).streams.info(`KV_${kvBucketNameFor(namespace, 'named')}`);
      expect(info.config.max_age).toBe(90_000 * 1_000_000);
      expect(info.config.max_msgs_per_subject).toBe(1);
    } finally {
      await counter.close();
      await nc.close();
    }
  });
});
