import { listJobsInputSchema, type Job, type ListPage } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import { mapPage } from '@vrs/store';
import type { z } from 'zod';
import type { ResearchDeps } from '../../research-deps';
import { requireOwnedProject } from '../projects/require-owned-project';
import { toJob } from './to-job';

/** The import jobs of one of the caller's projects, newest first (ADR 0020). */
export async function listJobsHandler({
  ctx,
  input,
}: {
  ctx: Pick<ResearchDeps, 'projects' | 'jobs'>;
  input: z.infer<typeof listJobsInputSchema>;
}): Promise<ListPage<Job>> {
  const project = await requireOwnedProject(ctx.projects, input.accountId, input.projectId);
  return mapPage(await ctx.jobs.pageOfProject(input.accountId, project._id, input), toJob);
}

export const listJobs = (deps: ResearchDeps) =>
  procedure.input(listJobsInputSchema).query(({ input }) => listJobsHandler({ ctx: deps, input }));
