import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { researchEvidenceAdded, researchExportRequested, researchImportRequested } from '@vrs/contracts';
import type { EventBus } from '@vrs/bus';
import { openTestBus } from '@vrs/testing/test-bus';
import { createHarness, newAccountId, type Harness } from '../testing/research-harness';

const poll = { timeout: 15_000, interval: 50 };

/**
 * How publishing fails: `down` throws before anything reaches NATS (NATS unreachable); `ack-lost`
 * stores the event and then throws, as when the connection drops before the server's ack arrives.
 */
type Outage = 'none' | 'down' | 'ack-lost';

describe('job-creating writes and evidence go through the outbox (ADR 0030)', () => {
  let bus: EventBus;
  let h: Harness;
  let outage: Outage = 'none';
  const failedPublishes: string[] = [];
  const imports: string[] = [];
  const exports: string[] = [];
  const evidenceEvents: string[][] = [];

  beforeAll(async () => {
    bus = await openTestBus('outbox');
    const flaky: EventBus = {
      ...bus,
      async publish(definition, data, options) {
        if (outage === 'down') {
          failedPublishes.push(definition.type);
          throw new Error('NATS unreachable (test outage)');
        }
        const result = await bus.publish(definition, data, options);
        if (outage === 'ack-lost') {
          failedPublishes.push(definition.type);
          throw new Error('connection lost before the ack (test outage)');
        }
        return result;
      },
    };
    h = await createHarness(flaky);
    // Probes beside the service's own consumers: they count what reaches JetStream's consumers.
    await bus.subscribe('outbox-probe-imports', researchImportRequested, async (event) => void imports.push(event.data.jobId));
    await bus.subscribe('outbox-probe-exports', researchExportRequested, async (event) => void exports.push(event.data.exportId));
    await bus.subscribe('outbox-probe-evidence', researchEvidenceAdded, async (event) => void evidenceEvents.push(event.data.evidenceIds));
  });

  afterAll(async () => {
    await h?.close();
  });

  it('keeps the events of writes made while publishing fails and delivers each once when it works again', async () => {
    const accountId = newAccountId();
    const project = await h.api.projects.create({ accountId, name: 'Outbox' });
    const created = { jobs: [] as string[], exports: [] as string[] };

    for (const mode of ['down', 'ack-lost'] as const) {
      outage = mode;
      const before = failedPublishes.length;
      for (let n = 0; n < 2; n++) {
        const { job } = await h.api.imports.create({ accountId, projectId: project.id, source: { type: 'video', id: `dQw4w9WgXc${n}` } });
        created.jobs.push(job.id);
        const { export: pending } = await h.api.exports.create({ accountId, projectId: project.id, format: 'json' });
        expect(pending.status).toBe('pending');
        created.exports.push(pending.id);
      }
      // The writes answered although publishing failed: the relay has tried (and will try again).
      await vi.waitFor(() => expect(failedPublishes.length).toBeGreaterThan(before), poll);
      // With NATS down nothing can have gone out (with the ack lost, the events are in the stream already).
      if (mode === 'down') expect([...imports, ...exports]).toEqual([]);
    }

    outage = 'none';

    await vi.waitFor(() => expect([...imports].sort()).toEqual([...created.jobs].sort()), poll);
    await vi.waitFor(() => expect([...exports].sort()).toEqual([...created.exports].sort()), poll);
    // The service's own exporter got them too: every export is written.
    await vi.waitFor(async () => {
      const { data } = await h.api.exports.list({ accountId, projectId: project.id });
      expect(data.map((item) => item.status)).toEqual(created.exports.map(() => 'completed'));
    }, poll);
    const pending = await h.store.collection('outbox').countDocuments({ status: 'pending' });
    expect(pending).toBe(0);
    // Sent rows are kept a day, then left to the retention sweeper (ADR 0029).
    const sent = await h.store.collection<{ _id: string; sentAt: string; expiresAt: string }>('outbox').find({ status: 'sent' });
    expect(sent.length).toBeGreaterThan(0);
    for (const row of sent) expect(Date.parse(row.expiresAt) - Date.parse(row.sentAt)).toBe(24 * 60 * 60_000);
    // Another publication after everything was sent would be a duplicate: one more write shows none came.
    const { job: last } = await h.api.imports.create({ accountId, projectId: project.id, source: { type: 'video', id: 'dQw4w9WgXcQ' } });
    await vi.waitFor(() => expect(imports).toContain(last.id), poll);
    expect(imports).toHaveLength(created.jobs.length + 1);
    expect(exports).toHaveLength(created.exports.length);
  });

  it('makes evidence added while publishing fails searchable once it works again, announced once per request', async () => {
    const accountId = newAccountId();
    const project = await h.api.projects.create({ accountId, name: 'Outbox evidence' });
    const added: string[][] = [];
    for (const mode of ['down', 'ack-lost'] as const) {
      outage = mode;
      const before = failedPublishes.length;
      const { items } = await h.api.evidence.add({
        accountId,
        projectId: project.id,
        items: [{ text: `Sourdough crumb note written while NATS is ${mode}`, sourceKey: `note:${mode}` }],
      });
      added.push(items.map((item) => item.id));
      await vi.waitFor(() => expect(failedPublishes.length).toBeGreaterThan(before), poll);
    }
    outage = 'none';

    await vi.waitFor(async () => {
      const { results } = await h.api.evidence.search({ accountId, projectId: project.id, q: 'sourdough crumb' });
      expect(results.map((result) => result.id).sort()).toEqual(added.flat().sort());
    }, poll);
    const mine = () => evidenceEvents.filter((ids) => added.some((batch) => batch[0] === ids[0]));
    await vi.waitFor(() => expect(mine()).toHaveLength(2), poll);
    // One more request shows nothing was published twice meanwhile.
    const { items } = await h.api.evidence.add({ accountId, projectId: project.id, items: [{ text: 'one more' }] });
    await vi.waitFor(() => expect(evidenceEvents.some((ids) => ids[0] === items[0]!.id)).toBe(true), poll);
    expect(mine()).toHaveLength(2);
  });

  it('publishes at start what a stopped instance left in its outbox', async () => {
    const accountId = newAccountId();
    const project = await h.api.projects.create({ accountId, name: 'Outbox restart' });
    outage = 'down';
    const { job } = await h.api.imports.create({ accountId, projectId: project.id, source: { type: 'video', id: 'dQw4w9WgXcR' } });
    const { export: pending } = await h.api.exports.create({ accountId, projectId: project.id, format: 'csv' });
    // The instance that wrote them stops (as a crash would leave it) before NATS comes back.
    await h.module.stop();
    outage = 'none';
    expect(imports).not.toContain(job.id);
    expect(exports).not.toContain(pending.id);

    await h.start(bus);

    await vi.waitFor(() => expect(imports.filter((id) => id === job.id)).toHaveLength(1), poll);
    await vi.waitFor(() => expect(exports.filter((id) => id === pending.id)).toHaveLength(1), poll);
  });
});
