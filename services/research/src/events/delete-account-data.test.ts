import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { billingAccountDeleted, type EventData, type EventEnvelope } from '@vrs/contracts';
import { createLogger } from '@vrs/kit';
import { createComparisonsRepo } from '../repo/comparisons-repo';
import { createEvidenceRepo } from '../repo/evidence-repo';
import { createExportsRepo } from '../repo/exports-repo';
import { createIdempotencyRepo } from '../repo/idempotency-repo';
import { createJobsRepo } from '../repo/jobs-repo';
import { createOperationsRepo } from '../repo/operations-repo';
import { createProjectsRepo } from '../repo/projects-repo';
import { createEvidenceSearch } from '../search/evidence-search';
import { createHarness, eventually, newAccountId, type Harness } from '../testing/research-harness';
import { createDeleteAccountDataHandler } from './delete-account-data';
import { eventRequestContext } from '@vrs/bus';

/** Every collection research keeps account data in. */
const collections = ['projects', 'evidence', 'jobs', 'exports', 'export_chunks', 'comparisons', 'operations', 'idempotency_keys', 'outbox'];

/** A collection written as stored, for documents whose procedures need upstreams this test has not. */
type RawDoc = { _id: string } & Record<string, unknown>;

function eventOf(data: EventData<typeof billingAccountDeleted>): EventEnvelope<EventData<typeof billingAccountDeleted>> {
  return { id: randomUUID(), type: billingAccountDeleted.type, occurredAt: new Date().toISOString(), data };
}

describe('research: deleting an account', () => {
  let h: Harness;
  let handle: ReturnType<typeof createDeleteAccountDataHandler>;

  beforeEach(async () => {
    h = await createHarness();
    const evidence = createEvidenceRepo(h.store);
    const clock = Date.now;
    handle = createDeleteAccountDataHandler({
      store: h.store,
      projects: createProjectsRepo(h.store),
      evidence,
      search: createEvidenceSearch(evidence, h.search),
      jobs: createJobsRepo(h.store),
      exports: createExportsRepo(h.store, { fileTtlMs: 60_000, clock }),
      comparisons: createComparisonsRepo(h.store),
      operations: createOperationsRepo(h.store),
      idempotency: createIdempotencyRepo(h.store, { ttlMs: 60_000, clock }),
      logger: createLogger('delete-account-data-test'),
    });
  });
  afterEach(() => h.close());

  /** Documents in research's collections mentioning `text` anywhere (ids included), per collection. */
  async function mentions(text: string): Promise<Record<string, number>> {
    const found: Record<string, number> = {};
    for (const name of collections) {
      const docs = await h.store.collection(name).find({});
      const count = docs.filter((doc) => JSON.stringify(doc).includes(text)).length;
      if (count > 0) found[name] = count;
    }
    return found;
  }

  /** One of everything research stores for an account, the way each is written; returns the project id. */
  async function seed(accountId: string): Promise<string> {
    const projectId = (await h.api.projects.create({ accountId, name: `project of ${accountId}` })).id;
    await h.api.evidence.add({ accountId, projectId, items: [{ text: `note of ${accountId} about pacing` }] });
    await eventually(async () =>
      (await h.api.evidence.search({ accountId, projectId, q: 'pacing' })).results.length === 1 ? true : undefined,
    );
    const now = new Date().toISOString();
    const jobId = `job_${randomUUID()}`;
    await h.store.collection<RawDoc>('jobs').insertOne({
      _id: jobId,
      accountId,
      projectId,
      type: 'import',
      status: 'running',
      source: { type: 'videos', videoIds: ['abc'] },
      include: {},
      progress: { done: 0, total: 1 },
      videos: [],
      warnings: [],
      errors: [],
      createdAt: now,
      updatedAt: now,
    });
    const exportId = `exp_${randomUUID()}`;
    await h.store
      .collection<RawDoc>('exports')
      .insertOne({ _id: exportId, accountId, projectId, projectName: 'p', format: 'json', status: 'ready', createdAt: now });
    await h.store
      .collection<RawDoc>('export_chunks')
      .insertOne({ _id: `${exportId}:0`, exportId, seq: 0, data: `[{"owner":"${accountId}"}]` });
    // An export of a project deleted earlier, found by its account alone.
    await h.store.collection<RawDoc>('exports').insertOne({
      _id: `exp_${randomUUID()}`,
      accountId,
      projectId: randomUUID(),
      projectName: 'gone',
      format: 'csv',
      status: 'pending',
      createdAt: now,
    });
    await createComparisonsRepo(h.store).save(accountId, { videoIds: ['a', 'b'] } as never);
    await createOperationsRepo(h.store).save(accountId, { type: 'answer', status: 'completed' } as never);
    await createIdempotencyRepo(h.store, { ttlMs: 60_000, clock: Date.now }).claim(accountId, 'createImport', 'key-1', 'fp');
    await h.store.collection<RawDoc>('outbox').insertOne({
      _id: jobId,
      type: 'research.import.requested',
      data: { accountId, projectId, jobId },
      status: 'sent',
      createdAt: now,
    });
    return projectId;
  }

  it("removes everything the account owns, search index included, and nothing of another account's, twice over", async () => {
    const deleted = newAccountId();
    const kept = newAccountId();
    const deletedProject = await seed(deleted);
    const keptProject = await seed(kept);
    expect(Object.keys(await mentions(deleted)).sort()).toEqual([...collections].sort());
    const keptBefore = await mentions(kept);
    expect(await h.search.version(deletedProject)).toBeGreaterThan(0);

    const event = eventOf({ accountId: deleted, deletedAt: new Date().toISOString() });
    await handle(event, eventRequestContext(event));
    await handle(event, eventRequestContext(event));

    expect(await mentions(deleted)).toEqual({});
    expect(await h.store.collection('evidence').countDocuments({ projectId: deletedProject })).toBe(0);
    expect(await h.store.collection('export_chunks').countDocuments({})).toBe(1);
    expect(await h.search.version(deletedProject)).toBe(0);
    expect(await mentions(kept)).toEqual(keptBefore);
    expect((await h.api.evidence.search({ accountId: kept, projectId: keptProject, q: 'pacing' })).results).toHaveLength(1);
  });
});
