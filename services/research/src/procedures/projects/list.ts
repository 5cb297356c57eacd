import { listProjectsInputSchema, type ListPage, type Project } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import { mapPage } from '@vrs/store';
import type { z } from 'zod';
import type { ResearchDeps } from '../../research-deps';
import { toProject } from './to-project';

/** The caller's projects, newest first, paged with `limit` + `cursor` (ADR 0020). */
export async function listProjectsHandler({
  ctx,
  input,
}: {
  ctx: Pick<ResearchDeps, 'projects'>;
  input: z.infer<typeof listProjectsInputSchema>;
}): Promise<ListPage<Project>> {
  return mapPage(await ctx.projects.listOwned(input.accountId, input), toProject);
}

export const listProjects = (deps: ResearchDeps) =>
  procedure.input(listProjectsInputSchema).query(({ input }) => listProjectsHandler({ ctx: deps, input }));
