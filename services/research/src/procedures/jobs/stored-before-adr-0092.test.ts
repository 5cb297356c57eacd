import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, newAccountId, type Harness } from '../../testing/research-harness';
import type { JobDoc } from '../../repo/jobs-repo';

/** Records saved before ADR 0092 read in today's names (issue 39). */
describe('records saved before the shared vocabulary', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(() => h.close());

  it('reads a job saved `queued` as `pending`, still cancellable, and a project without `updatedAt` as created', async () => {
    const accountId = newAccountId();
    const project = await h.api.projects.create({ accountId, name: 'old records' });
    const now = new Date().toISOString();
    await h.store.collection('projects').updateOne({ _id: project.id }, { $unset: { updatedAt: '' } });
    await h.store.collection<JobDoc>('jobs').insertOne({
      _id: 'job_saved_queued',
      accountId,
      projectId: project.id,
      type: 'import',
      status: 'queued',
      source: { type: 'video', id: 'vrsFixture1' },
      include: { metadata: true, transcript: true, comments: false },
      progress: { done: 0, total: 0 },
      videos: [],
      warnings: [],
      errors: [],
      createdAt: now,
      updatedAt: now,
    });
    expect(await h.api.jobs.get({ accountId, jobId: 'job_saved_queued' })).toMatchObject({ id: 'job_saved_queued', status: 'pending' });
    expect(await h.api.jobs.cancel({ accountId, jobId: 'job_saved_queued' })).toMatchObject({ status: 'cancelled' });
    expect(await h.api.projects.get({ accountId, projectId: project.id })).toMatchObject({ updatedAt: project.createdAt });
  });
});
