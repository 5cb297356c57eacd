import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, eventually, failureOf, newAccountId, type Harness, type ResearchInstance } from '../../testing/research-harness';

/** The sourceKeys a search finds, right now (no waiting: updates and deletes are searchable when they answer). */
const foundKeys = async (instance: ResearchInstance, input: { accountId: string; projectId: string }, q: string) =>
  (await instance.api.evidence.search({ ...input, q })).results.map((result) => result.sourceKey);

describe('saved evidence can be browsed, changed and removed', () => {
  let h: Harness;
  let accountId: string;
  let projectId: string;
  let replica: ResearchInstance;
  beforeEach(async () => {
    h = await createHarness();
    replica = await h.start();
    accountId = newAccountId();
    projectId = (await h.api.projects.create({ accountId, name: 'research' })).id;
  });
  afterEach(() => h.close());

  /** Adds items and waits until both replicas find all of them, so both hold a warm index. */
  async function addSearchable(items: { text: string; sourceKey: string }[]) {
    const { items: stored } = await h.api.evidence.add({ accountId, projectId, items });
    for (const instance of [h, replica]) {
      await eventually(
        async () => ((await foundKeys(instance, { accountId, projectId }, 'espresso')).length === items.length ? true : undefined),
        {
          what: 'the added evidence to be searchable',
        },
      );
    }
    return stored;
  }

  it('lists a project’s evidence newest first, page by page, for its owner only', async () => {
    const stored = await addSearchable([
      { text: 'espresso one', sourceKey: 'k1' },
      { text: 'espresso two', sourceKey: 'k2' },
      { text: 'espresso three', sourceKey: 'k3' },
    ]);
    const first = await h.api.evidence.list({ accountId, projectId, limit: 2 });
    expect(first.hasMore).toBe(true);
    const second = await h.api.evidence.list({ accountId, projectId, limit: 2, cursor: first.nextCursor! });
    expect(second).toMatchObject({ hasMore: false, nextCursor: null });
    expect([...first.data, ...second.data].map((item) => item.id)).toEqual(stored.map((item) => item.id).reverse());
    expect(first.data[0]).toEqual(stored[2]);

    const stranger = newAccountId();
    expect((await failureOf(h.api.evidence.list({ accountId: stranger, projectId }))).appCode).toBe('PROJECT_NOT_FOUND');
    expect((await failureOf(h.api.evidence.get({ accountId: stranger, projectId, evidenceId: stored[0]!.id }))).appCode).toBe(
      'PROJECT_NOT_FOUND',
    );
    expect(await h.api.evidence.get({ accountId, projectId, evidenceId: stored[0]!.id })).toEqual(stored[0]);
  });

  it('an updated item is found by its new text and not its old one, on every replica, as soon as the update answers', async () => {
    const [grind] = await addSearchable([
      { text: 'espresso grind size matters', sourceKey: 'grind' },
      { text: 'espresso milk temperature', sourceKey: 'milk' },
    ]);
    if (!grind) throw new Error('nothing stored');
    const updated = await h.api.evidence.update({
      accountId,
      projectId,
      evidenceId: grind.id,
      text: 'espresso tamping pressure',
      startMs: 42,
    });
    expect(updated).toMatchObject({
      id: grind.id,
      sourceKey: 'grind',
      text: 'espresso tamping pressure',
      startMs: 42,
      createdAt: grind.createdAt,
    });
    expect(updated.updatedAt >= grind.updatedAt).toBe(true);

    for (const instance of [h, replica]) {
      expect(await foundKeys(instance, { accountId, projectId }, 'grind')).toEqual([]);
      expect(await foundKeys(instance, { accountId, projectId }, 'tamping')).toEqual(['grind']);
    }
    const cleared = await h.api.evidence.update({ accountId, projectId, evidenceId: grind.id, startMs: null });
    expect(cleared.startMs).toBeUndefined();

    expect((await failureOf(h.api.evidence.update({ accountId, projectId, evidenceId: grind.id }))).appCode).toBe('VALIDATION_FAILED');
    expect((await failureOf(h.api.evidence.update({ accountId, projectId, evidenceId: 'ev_nope', text: 'x' }))).appCode).toBe(
      'EVIDENCE_NOT_FOUND',
    );
    expect(
      (await failureOf(h.api.evidence.update({ accountId: newAccountId(), projectId, evidenceId: grind.id, text: 'stolen' }))).appCode,
    ).toBe('PROJECT_NOT_FOUND');
  });

  it('a deleted item is no longer found by any replica once the delete answers, and deleting it again is EVIDENCE_NOT_FOUND', async () => {
    const [grind] = await addSearchable([
      { text: 'espresso grind size matters', sourceKey: 'grind' },
      { text: 'espresso milk temperature', sourceKey: 'milk' },
    ]);
    if (!grind) throw new Error('nothing stored');
    expect((await failureOf(h.api.evidence.delete({ accountId: newAccountId(), projectId, evidenceId: grind.id }))).appCode).toBe(
      'PROJECT_NOT_FOUND',
    );
    expect(await h.api.evidence.delete({ accountId, projectId, evidenceId: grind.id })).toEqual({ id: grind.id, deleted: true });

    for (const instance of [h, replica]) {
      expect(await foundKeys(instance, { accountId, projectId }, 'espresso')).toEqual(['milk']);
      expect(await foundKeys(instance, { accountId, projectId }, 'grind')).toEqual([]);
    }
    expect((await h.api.evidence.list({ accountId, projectId })).data.map((item) => item.sourceKey)).toEqual(['milk']);
    expect((await failureOf(h.api.evidence.delete({ accountId, projectId, evidenceId: grind.id }))).appCode).toBe('EVIDENCE_NOT_FOUND');

    // Evidence added after a removal is indexed as usual on top of the rebuilt index.
    await h.api.evidence.add({ accountId, projectId, items: [{ text: 'espresso crema', sourceKey: 'crema' }] });
    for (const instance of [h, replica]) {
      await eventually(async () => ((await foundKeys(instance, { accountId, projectId }, 'crema')).length === 1 ? true : undefined), {
        what: 'evidence added after a delete to be searchable',
      });
    }
  });

  it('renames a project for its owner only', async () => {
    expect(await h.api.projects.rename({ accountId, projectId, name: '  Renamed ' })).toMatchObject({ id: projectId, name: 'Renamed' });
    expect((await h.api.projects.get({ accountId, projectId })).name).toBe('Renamed');
    expect((await failureOf(h.api.projects.rename({ accountId: newAccountId(), projectId, name: 'Mine now' }))).appCode).toBe(
      'PROJECT_NOT_FOUND',
    );
    expect((await h.api.projects.get({ accountId, projectId })).name).toBe('Renamed');
  });

  it('deleting a project removes its evidence, jobs, exports with their files, and index; other projects keep theirs', async () => {
    await addSearchable([{ text: 'espresso grind', sourceKey: 'grind' }]);
    const keptId = (await h.api.projects.create({ accountId, name: 'kept' })).id;
    await h.api.evidence.add({ accountId, projectId: keptId, items: [{ text: 'kept note' }] });
    const now = new Date().toISOString();
    const job = { accountId, type: 'import', status: 'completed', progress: { done: 0, total: 0 }, videos: [], warnings: [], errors: [] };
    await h.store.collection<any>('jobs').insertMany([
      { _id: 'job_gone', projectId, ...job, source: { type: 'video', id: 'v' }, createdAt: now, updatedAt: now },
      { _id: 'job_kept', projectId: keptId, ...job, source: { type: 'video', id: 'v' }, createdAt: now, updatedAt: now },
    ]);
    await h.store
      .collection<any>('exports')
      .insertOne({ _id: 'exp_gone', accountId, projectId, format: 'json', status: 'ready', createdAt: now, updatedAt: now });
    await h.store.collection<any>('export_chunks').insertOne({ _id: 'exp_gone:0', exportId: 'exp_gone', seq: 0, data: '{}' });

    expect((await h.api.jobs.list({ accountId, projectId })).data.map((j) => j.id)).toEqual(['job_gone']);
    expect((await h.api.exports.list({ accountId })).data.map((e) => e.id)).toEqual(['exp_gone']);
    expect((await failureOf(h.api.projects.delete({ accountId: newAccountId(), projectId }))).appCode).toBe('PROJECT_NOT_FOUND');

    expect(await h.api.projects.delete({ accountId, projectId })).toEqual({ id: projectId, deleted: true });
    for (const [collection, filter] of [
      ['evidence', { projectId }],
      ['jobs', { projectId }],
      ['exports', { projectId }],
      ['export_chunks', { exportId: 'exp_gone' }],
      ['projects', { _id: projectId }],
    ] as const) {
      expect(await h.store.collection(collection).countDocuments(filter), collection).toBe(0);
    }
    for (const instance of [h, replica]) {
      expect((await failureOf(instance.api.evidence.search({ accountId, projectId, q: 'espresso' }))).appCode).toBe('PROJECT_NOT_FOUND');
    }
    expect((await failureOf(h.api.jobs.get({ accountId, jobId: 'job_gone' }))).appCode).toBe('JOB_NOT_FOUND');
    expect((await failureOf(h.api.jobs.list({ accountId, projectId }))).appCode).toBe('PROJECT_NOT_FOUND');
    expect((await failureOf(h.api.projects.delete({ accountId, projectId }))).appCode).toBe('PROJECT_NOT_FOUND');

    expect((await h.api.jobs.list({ accountId, projectId: keptId })).data.map((j) => j.id)).toEqual(['job_kept']);
    expect(await h.store.collection('evidence').countDocuments({ projectId: keptId })).toBe(1);
  });
});
