import { join } from 'node:path';
import { openEmbeddedSearchInThread, type SearchIndex } from '@vrs/search';
import { openStore, type Store } from '@vrs/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '@vrs/testing/temp-dir';
import type { BillingClient } from '../../billing-client';
import { createEvidenceRepo } from '../../repo/evidence-repo';
import { createExportsRepo } from '../../repo/exports-repo';
import { createJobsRepo } from '../../repo/jobs-repo';
import { createProjectsRepo } from '../../repo/projects-repo';
import { createEvidenceSearch } from '../../search/evidence-search';
import { deleteProjectHandler } from './delete';

/** Billing's refund, recording which reservations it was asked to return. */
function recordingBilling() {
  const refunded: string[] = [];
  const billing = {
    credits: { refund: { mutate: async ({ reservationId }: { reservationId: string }) => refunded.push(reservationId) } },
  } as unknown as BillingClient;
  return { billing, refunded };
}

describe('deleting a project with unfinished work (ADR 0019)', () => {
  let store: Store;
  let searchIndex: SearchIndex;
  beforeEach(async () => {
    const dataDir = makeTempDir('research-delete-');
    store = await openStore({ service: 'research', dataDir });
    searchIndex = openEmbeddedSearchInThread(join(dataDir, 'search'));
  });
  afterEach(async () => {
    await searchIndex.close();
    await store.close();
  });

  it('refunds the credits held by its queued or running jobs and pending exports, and no others', async () => {
    const projects = createProjectsRepo(store);
    const jobs = createJobsRepo(store);
    const exports = createExportsRepo(store, { fileTtlMs: 60_000, clock: Date.now });
    const evidence = createEvidenceRepo(store);
    const ctx = { projects, jobs, exports, evidence, search: createEvidenceSearch(evidence, searchIndex) };
    const project = await projects.create('acct_a', 'Espresso');
    const other = await projects.create('acct_a', 'Tea');
    const source = { type: 'video' as const, id: 'rCAS2eD-mcw' };
    const include = { metadata: true, transcript: true, comments: false };
    await jobs.create({
      _id: 'job_queued',
      accountId: 'acct_a',
      projectId: project._id,
      source,
      include,
      credits: { reservationId: 'res_queued', amount: 5 },
    });
    await jobs.create({
      _id: 'job_ended',
      accountId: 'acct_a',
      projectId: project._id,
      source,
      include,
      credits: { reservationId: 'res_ended', amount: 5 },
    });
    await jobs.finish('job_ended', 'completed');
    await jobs.create({
      _id: 'job_other',
      accountId: 'acct_a',
      projectId: other._id,
      source,
      include,
      credits: { reservationId: 'res_other', amount: 5 },
    });
    const pending = await exports.create({
      accountId: 'acct_a',
      projectId: project._id,
      projectName: 'Espresso',
      format: 'csv',
      credits: { reservationId: 'res_export', amount: 2 },
    });

    const { billing, refunded } = recordingBilling();
    expect(await deleteProjectHandler({ ctx: { ...ctx, billing }, input: { accountId: 'acct_a', projectId: project._id } })).toEqual({
      id: project._id,
      deleted: true,
    });

    expect(refunded.sort()).toEqual(['res_export', 'res_queued']);
    expect(await jobs.findById('job_queued')).toBeNull();
    expect(await exports.findById(pending._id)).toBeNull();
    expect(await jobs.findById('job_other')).not.toBeNull();
  });
});
