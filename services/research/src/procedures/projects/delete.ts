import { projectRefInputSchema, type Deleted } from '@vrs/contracts';
import { forRequest, procedure } from '@vrs/kit';
import type { z } from 'zod';
import type { ResearchDeps } from '../../research-deps';
import { requireOwnedProject } from './require-owned-project';

/**
 * Deletes a project with its import jobs (a running one stops before its next video), exports with
 * their files, evidence and this process's search index (other replicas never search it again). The
 * project goes last, so a deletion cut short can be sent again; its evidence is swept once more after
 * it, for items an import wrote meanwhile. Answers and reports made from it stay (the account's).
 * Unfinished work delivers nothing, so its held credits are refunded first (ADR 0019; idempotent).
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
