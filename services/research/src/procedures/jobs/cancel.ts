import { jobRefInputSchema, type Job } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { ResearchDeps } from '../../research-deps';
import { toJob } from './to-job';

/**
 * Cancels a queued or running job; the importer stops before its next video (videos already
 * imported stay). Cancelling a cancelled job answers it again; a finished one is a 409.
 */
export const cancelJob = ({ jobs }: ResearchDeps) =>
  procedure.input(jobRefInputSchema).mutation(async ({ input }): Promise<Job> => {
    const cancelled = await jobs.cancel(input.accountId, input.jobId);
    const job = await jobs.findOwned(input.accountId, input.jobId);
    if (!job) throw new AppError('JOB_NOT_FOUND');
    if (!cancelled && job.status !== 'cancelled') throw new AppError('JOB_NOT_CANCELLABLE', undefined, { status: job.status });
    return toJob(job);
  });
