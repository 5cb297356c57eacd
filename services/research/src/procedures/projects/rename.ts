import { renameProjectInputSchema, type Project } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { ResearchDeps } from '../../research-deps';
import { findOwnedProject } from './require-owned-project';
import { toProject } from './to-project';

export const renameProject = ({ projects }: ResearchDeps) =>
  procedure.input(renameProjectInputSchema).mutation(async ({ input }): Promise<Project> => {
    const owned = await findOwnedProject(projects, input.accountId, input.projectId);
    const renamed = owned && (await projects.rename(input.accountId, owned._id, input.name));
    if (!renamed) throw new AppError('PROJECT_NOT_FOUND');
    return toProject(renamed);
  });
