import { projectRefInputSchema, type Project } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { ResearchDeps } from '../../research-deps';
import { requireOwnedProject } from './require-owned-project';
import { toProject } from './to-project';

export const getProject = ({ projects }: ResearchDeps) =>
  procedure
    .input(projectRefInputSchema)
    .query(async ({ input }): Promise<Project> => toProject(await requireOwnedProject(projects, input.accountId, input.projectId)));
