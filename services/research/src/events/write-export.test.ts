import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '@vrs/kit';
import { createEvidenceRepo } from '../repo/evidence-repo';
import { createExportsRepo } from '../repo/exports-repo';
import { createHarness, failureOf, newAccountId, noBilling, type Harness } from '../testing/research-harness';
import { createWriteExportHandler } from './write-export';
import { eventRequestContext } from '@vrs/bus';

describe('writing an export', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(() => h.close());

  it('writes the file in pages and chunks that join into the whole file, once', async () => {
    const accountId = newAccountId();
    const project = await h.api.projects.create({ accountId, name: 'Big' });
    const items = Array.from({ length: 25 }, (_, i) => ({ text: `Evidence number ${i} with some words.`, sourceKey: `k:${i}` }));
    await h.api.evidence.add({ accountId, projectId: project.id, items });
    const exportsRepo = createExportsRepo(h.store, { fileTtlMs: 60_000, clock: Date.now });
    const record = await exportsRepo.create({ accountId, projectId: project.id, projectName: 'Big', format: 'json' });
    const handler = createWriteExportHandler({
      exports: exportsRepo,
      evidence: createEvidenceRepo(h.store),
      billing: noBilling,
      logger: createLogger('test'),
      pageSize: 4,
      chunkChars: 300,
    });
    const event = {
      id: 'e1',
      type: 'research.export.requested',
      occurredAt: new Date().toISOString(),
      data: { accountId, exportId: record._id },
    };

    await handler(event, eventRequestContext(event));
    const ready = (await exportsRepo.findById(record._id))!;
    expect(ready).toMatchObject({ status: 'ready', itemCount: 25 });
    expect(ready.chunkCount).toBeGreaterThan(3);
    const chunks = [];
    for (let seq = 0; seq < ready.chunkCount!; seq++) chunks.push(await exportsRepo.readChunk(record._id, seq));
    const file = chunks.join('');
    expect(Buffer.byteLength(file)).toBe(ready.sizeBytes);
    expect(
      JSON.parse(file)
        .evidence.map((item: { sourceKey: string }) => item.sourceKey)
        .sort(),
    ).toEqual(items.map((item) => item.sourceKey).sort());

    // A redelivered event finds the export ready and leaves it alone.
    await handler(event, eventRequestContext(event));
    expect(await exportsRepo.findById(record._id)).toEqual(ready);
  });

  it("refuses chunks of an export that is not ready (409 EXPORT_NOT_READY), and of another account's (404)", async () => {
    const accountId = newAccountId();
    const project = await h.api.projects.create({ accountId, name: 'Pending' });
    // Written straight to the repo, with no event published: the export stays pending.
    const record = await createExportsRepo(h.store, { fileTtlMs: 60_000, clock: Date.now }).create({
      accountId,
      projectId: project.id,
      projectName: 'Pending',
      format: 'csv',
    });
    expect(await failureOf(h.api.exports.readChunk({ accountId, exportId: record._id, seq: 0 }))).toMatchObject({
      appCode: 'EXPORT_NOT_READY',
      details: { status: 'pending' },
    });
    expect(await failureOf(h.api.exports.readChunk({ accountId: newAccountId(), exportId: record._id, seq: 0 }))).toMatchObject({
      appCode: 'EXPORT_NOT_FOUND',
    });
  });
});
