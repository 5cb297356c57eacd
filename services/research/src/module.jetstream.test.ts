import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJetStreamBus, deleteNamespace, type EventBus } from '@vrs/bus';
import { ensureNatsServer, uniqueNamespace, type NatsServerHandle } from '@vrs/testing/nats';
import { createHarness, eventually, newAccountId, type Harness, type ResearchInstance } from './testing/research-harness';

/** Two replicas, each with its own NATS connection, sharing one store and the durable consumer. */
describe('research over NATS JetStream', () => {
  let nats: NatsServerHandle;
  let namespace: string;
  let h: Harness;
  let replicaBus: EventBus;
  let replica: ResearchInstance;

  const connect = (name: string) => createJetStreamBus({ natsUrl: nats.url, namespace, name });

  beforeAll(async () => {
    nats = await ensureNatsServer();
    namespace = uniqueNamespace('research');
    h = await createHarness(await connect('research-a'));
    replicaBus = await connect('research-b');
    replica = await h.start(replicaBus);
  });

  afterAll(async () => {
    await h?.close();
    await replicaBus?.close();
    if (namespace) await deleteNamespace(nats.url, namespace);
    await nats?.stop();
  });

  it('indexes evidence from the event on the real bus, and both replicas find it', async () => {
    const accountId = newAccountId();
    const { id: projectId } = await h.api.projects.create({ accountId, name: 'jetstream' });
    const added = [];
    for (let i = 0; i < 4; i++) {
      const instance = i % 2 === 0 ? h : replica;
      added.push(...(await instance.api.evidence.add({ accountId, projectId, items: [{ text: `creator economy note ${i}` }] })).items);
    }
    const expected = added.map((item) => item.id).sort();

    for (const instance of [h, replica]) {
      const found = await eventually(
        async () => {
          const { results } = await instance.api.evidence.search({ accountId, projectId, q: 'creator economy' });
          return results.length === added.length ? results : undefined;
        },
        { timeoutMs: 10_000, intervalMs: 20, what: 'all evidence searchable' },
      );
      expect(found.map((result) => result.id).sort()).toEqual(expected);
    }
  });
});
