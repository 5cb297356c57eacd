import { listProjectsInputSchema, type ListPage, type Project } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import { mapPage } from '@vrs/store';
import type { ResearchDeps } from '../../research-deps';
import { toProject } from './to-project';

/** The caller's projects, newest first, paged with `limit` + `cursor` (ADR 0020). */
export const listProjects = ({ projects }: ResearchDeps) =>
  procedure
    .input(listProjectsInputSchema)
    .query(async ({ input }): Promise<ListPage<Project>> => mapPage(await projects.listOwned(input.accountId, input), toProject));
