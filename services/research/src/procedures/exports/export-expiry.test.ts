import { join } from 'node:path';
import type { EventBus } from '@vrs/bus';
import { openEmbeddedSearch, type SearchIndex } from '@vrs/search';
import { openStore, type Store } from '@vrs/store';
import { openTestBus } from '@vrs/testing/test-bus';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '@vrs/testing/temp-dir';
import { defaultResearchRetention } from '../../config';
import { eventually, failureOf, newAccountId, type ResearchInstance, startResearch } from '../../testing/research-harness';

const hour = 60 * 60 * 1000;

describe('export files expire', () => {
  let store: Store;
  let bus: EventBus;
  let search: SearchIndex;
  let now: number;
  let research: ResearchInstance;
  const start = () =>
    startResearch(store, bus, search, { clock: () => now, retention: { ...defaultResearchRetention, exportTtlMs: 2 * hour } });

  beforeEach(async () => {
    const dataDir = makeTempDir('research-export-expiry-');
    store = await openStore({ service: 'research', dataDir });
    bus = await openTestBus('research-expiry');
    search = openEmbeddedSearch(join(dataDir, 'search'));
    now = Date.parse('2026-03-01T12:00:00.000Z');
    research = await start();
  });

  afterEach(async () => {
    await research.module.stop();
    await bus.close();
    await search.close();
    await store.close();
  });

  it('serves the file until expiresAt, then answers 410 EXPORT_EXPIRED, and the sweeper deletes its chunks', async () => {
    const { api } = research;
    const accountId = newAccountId();
    const project = await api.projects.create({ accountId, name: 'Kept two hours' });
    await api.evidence.add({ accountId, projectId: project.id, items: [{ text: 'Some evidence.', sourceKey: 'k:1' }] });
    const { export: created } = await api.exports.create({ accountId, projectId: project.id, format: 'json' });
    const ready = await eventually(async () => {
      const found = await api.exports.get({ accountId, exportId: created.id });
      return found.export.status === 'completed' ? found : undefined;
    });
    expect(ready.export.expiresAt).toBe('2026-03-01T14:00:00.000Z');
    expect(ready.expired).toBe(false);
    now += 2 * hour - 1;
    expect((await api.exports.readChunk({ accountId, exportId: created.id, seq: 0 })).data).toContain('Some evidence.');

    now += 1;
    expect((await api.exports.get({ accountId, exportId: created.id })).expired).toBe(true);
    expect(await failureOf(api.exports.readChunk({ accountId, exportId: created.id, seq: 0 }))).toMatchObject({
      appCode: 'EXPORT_EXPIRED',
      details: { expiresAt: '2026-03-01T14:00:00.000Z' },
    });

    // A restart sweeps at once: the file's chunks go, the record stays to answer 410.
    await research.module.stop();
    research = await start();
    const chunks = store.collection('export_chunks');
    await eventually(async () => ((await chunks.countDocuments({ exportId: created.id })) === 0 ? true : undefined));
    expect((await research.api.exports.get({ accountId, exportId: created.id })).export.status).toBe('completed');
  });
});
