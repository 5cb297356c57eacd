import { listJobsInputSchema, type Job, type ListPage } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import { mapPage } from '@vrs/store';
import type { ResearchDeps } from '../../research-deps';
import { requireOwnedProject } from '../projects/require-owned-project';
import { toJob } from './to-job';

/** The import jobs of one of the caller's projects, newest first (ADR 0020). */
export const listJobs = ({ projects, jobs }: ResearchDeps) =>
  procedure.input(listJobsInputSchema).query(async ({ input }): Promise<ListPage<Job>> => {
    const project = await requireOwnedProject(projects, input.accountId, input.projectId);
    return mapPage(await jobs.pageOfProject(input.accountId, project._id, input), toJob);
  });
