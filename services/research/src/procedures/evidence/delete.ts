import { evidenceRefInputSchema, type Deleted } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { z } from 'zod';
import type { ResearchDeps } from '../../research-deps';
import { resetProjectIndex } from '../../search/index-project-evidence';
import { requireOwnedProject } from '../projects/require-owned-project';

/** Removes a saved item; once this answers, no search of any replica finds it (ADR 0020). */
export async function deleteEvidenceHandler({
  ctx,
  input,
}: {
  ctx: Pick<ResearchDeps, 'projects' | 'evidence'>;
  input: z.infer<typeof evidenceRefInputSchema>;
}): Promise<Deleted> {
  const project = await requireOwnedProject(ctx.projects, input.accountId, input.projectId);
  if (!(await ctx.evidence.deleteOne(project._id, input.evidenceId))) throw new AppError('EVIDENCE_NOT_FOUND');
  await resetProjectIndex(ctx, project._id);
  return { id: input.evidenceId, deleted: true };
}

export const deleteEvidence = (deps: ResearchDeps) =>
  procedure.input(evidenceRefInputSchema).mutation(({ input }) => deleteEvidenceHandler({ ctx: deps, input }));
