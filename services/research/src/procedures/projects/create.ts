import { createProjectInputSchema, type Project } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import type { ResearchDeps } from '../../research-deps';
import { toProject } from './to-project';

export const createProject = ({ projects }: ResearchDeps) =>
  procedure
    .input(createProjectInputSchema)
    .mutation(async ({ input }): Promise<Project> => toProject(await projects.create(input.accountId, input.name)));
