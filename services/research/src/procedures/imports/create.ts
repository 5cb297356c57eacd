import { createImportInputSchema, researchImportRequested, type Job } from '@vrs/contracts';
import { recordOutboxEvent } from '@vrs/bus';
import { newId, procedure } from '@vrs/kit';
import { runIdempotent } from '../../idempotency/run-idempotent';
import type { ResearchDeps } from '../../research-deps';
import { requireOwnedProject } from '../projects/require-owned-project';
import { toJob } from '../jobs/to-job';

/**
 * Queues an import job and records its announcement in the outbox, for the importer to run;
 * Idempotency-Key aware. The job settles the credits the gateway held when it ends; a replay keeps the
 * first job's hold (the caller settles its own new hold at the replay price).
 */
export const createImport = ({ store, projects, jobs, idempotency, outbox }: ResearchDeps) =>
  procedure.input(createImportInputSchema).mutation(async ({ input, ctx }): Promise<{ job: Job; replayed: boolean }> => {
    const { accountId, projectId, source, include, idempotencyKey, credits } = input;
    const project = await requireOwnedProject(projects, accountId, projectId);
    const { result, replayed } = await runIdempotent(
      idempotency,
      { accountId, operation: 'createImport', key: idempotencyKey, request: { projectId, source, include } },
      async () => {
        // The job and its event commit together: a job is never left queued with nobody told to run it.
        const job = await store.withTransaction(async (tx) => {
          const created = await jobs.create({ _id: newId('job'), accountId, projectId: project._id, source, include, credits }, tx);
          await recordOutboxEvent(tx, researchImportRequested, { accountId, projectId: project._id, jobId: created._id }, created._id, ctx);
          return created;
        }, ctx.trace);
        outbox.notify();
        return toJob(job);
      },
    );
    return { job: result, replayed };
  });
