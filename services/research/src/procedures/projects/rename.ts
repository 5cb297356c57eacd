import { renameProjectInputSchema, type Project } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { z } from 'zod';
import type { ResearchDeps } from '../../research-deps';
import { findOwnedProject } from './require-owned-project';
import { toProject } from './to-project';

export async function renameProjectHandler({
  ctx,
  input,
}: {
  ctx: Pick<ResearchDeps, 'projects'>;
  input: z.infer<typeof renameProjectInputSchema>;
}): Promise<Project> {
  const owned = await findOwnedProject(ctx.projects, input.accountId, input.projectId);
  const renamed = owned && (await ctx.projects.rename(input.accountId, owned._id, input.name));
  if (!renamed) throw new AppError('PROJECT_NOT_FOUND');
  return toProject(renamed);
}

export const renameProject = (deps: ResearchDeps) =>
  procedure.input(renameProjectInputSchema).mutation(({ input }) => renameProjectHandler({ ctx: deps, input }));
