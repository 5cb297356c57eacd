import { projectRefInputSchema, type Deleted } from '@vrs/contracts';
import { forRequest, procedure } from '@vrs/kit';
import type { z } from 'zod';
import type { ResearchDeps } from '../../research-deps';
import { requireOwnedProject } from './require-owned-project';

/**
 * Deletes a project with everything saved in it: its import jobs (a running one stops before its
 * next video), exports and their files, evidence, and this process's search index (other replicas'
 * indexes of it are never searched again: the project is gone). The project itself
 * goes last, so a deletion cut short can simply be sent again; its evidence is swept once more after
 * it, for items a video being imported meanwhile wrote. Answers and reports made from it stay: they
 * are the account's operations. Work still unfinished never delivers anything, so the credits it
 * holds are refunded first (ADR 0019); a refund is idempotent, so a repeated deletion is safe.
 */
export async function deleteProjectHandler({
  ctx,
  input,
}: {
  ctx: Pick<ResearchDeps, 'projects' | 'evidence' | 'jobs' | 'exports' | 'search' | 'billing'>;
  input: z.infer<typeof projectRefInputSchema>;
}): Promise<Deleted> {
  const project = await requireOwnedProject(ctx.projects, input.accountId, input.projectId);
  const holds = [...(await ctx.jobs.unsettledHoldsOfProject(project._id)), ...(await ctx.exports.unsettledHoldsOfProject(project._id))];
  await Promise.all(holds.map((hold) => ctx.billing.credits.refund.mutate({ reservationId: hold.reservationId })));
  await ctx.jobs.deleteAllOfProject(project._id);
  await ctx.exports.deleteAllOfProject(project._id);
  await ctx.evidence.deleteAll(project._id);
  await ctx.projects.deleteOwned(input.accountId, project._id);
  await ctx.evidence.deleteAll(project._id);
  await ctx.search.forget(project._id);
  return { id: project._id, deleted: true };
}

export const deleteProject = (deps: ResearchDeps) =>
  procedure
    .input(projectRefInputSchema)
    .mutation(({ input, ctx }) => deleteProjectHandler({ ctx: { ...deps, billing: forRequest(deps.billing, ctx) }, input }));
