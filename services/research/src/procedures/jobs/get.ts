import { jobRefInputSchema, type Job } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { ResearchDeps } from '../../research-deps';
import { toJob } from './to-job';

/** Another account's job answers like an unknown one. */
export const getJob = ({ jobs }: ResearchDeps) =>
  procedure.input(jobRefInputSchema).query(async ({ input }): Promise<Job> => {
    const job = await jobs.findOwned(input.accountId, input.jobId);
    if (!job) throw new AppError('JOB_NOT_FOUND');
    return toJob(job);
  });
