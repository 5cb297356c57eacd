import { createImportInputSchema, researchImportRequested, type Job } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import { runIdempotent } from '../../idempotency/run-idempotent';
import { newJobId } from '../../repo/jobs-repo';
import type { ResearchDeps } from '../../research-deps';
import { requireOwnedProject } from '../projects/require-owned-project';
import { toJob } from '../jobs/to-job';

/**
 * Queues an import job and announces it; the importer (a durable consumer) runs it. Idempotency-Key
 * aware. The credits the gateway held go with the job, which settles them when it ends; a replay
 * keeps the first job's hold (the caller settles its own new hold at the replay price).
 */
export const createImport = ({ projects, jobs, idempotency, bus }: ResearchDeps) =>
  procedure.input(createImportInputSchema).mutation(async ({ input }): Promise<{ job: Job; replayed: boolean }> => {
    const { accountId, projectId, source, include, idempotencyKey, credits } = input;
    const project = await requireOwnedProject(projects, accountId, projectId);
    const { result, replayed } = await runIdempotent(
      idempotency,
      { accountId, operation: 'createImport', key: idempotencyKey, request: { projectId, source, include } },
      async () => {
        const job = toJob(await jobs.create({ _id: newJobId(), accountId, projectId: project._id, source, include, credits }));
        await bus.publish(researchImportRequested, { accountId, projectId: project._id, jobId: job.id }, { eventId: job.id });
        return job;
      },
    );
    return { job: result, replayed };
  });
