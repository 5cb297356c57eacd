import { listEvidenceInputSchema, type ListPage, type StoredEvidence } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import { mapPage } from '@vrs/store';
import type { z } from 'zod';
import type { ResearchDeps } from '../../research-deps';
import { requireOwnedProject } from '../projects/require-owned-project';
import { toStoredEvidence } from './to-stored-evidence';

/** The saved items of one of the caller's projects, newest first (ADR 0020). */
export async function listEvidenceHandler({
  ctx,
  input,
}: {
  ctx: Pick<ResearchDeps, 'projects' | 'evidence'>;
  input: z.infer<typeof listEvidenceInputSchema>;
}): Promise<ListPage<StoredEvidence>> {
  const project = await requireOwnedProject(ctx.projects, input.accountId, input.projectId);
  return mapPage(await ctx.evidence.page(project._id, input), toStoredEvidence);
}

export const listEvidence = (deps: ResearchDeps) =>
  procedure.input(listEvidenceInputSchema).query(({ input }) => listEvidenceHandler({ ctx: deps, input }));
