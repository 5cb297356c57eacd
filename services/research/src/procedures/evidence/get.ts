import { evidenceRefInputSchema, type StoredEvidence } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { z } from 'zod';
import type { ResearchDeps } from '../../research-deps';
import { requireOwnedProject } from '../projects/require-owned-project';
import { toStoredEvidence } from './to-stored-evidence';

/** One saved item of one of the caller's projects; anyone else's is EVIDENCE_NOT_FOUND. */
export async function getEvidenceHandler({
  ctx,
  input,
}: {
  ctx: Pick<ResearchDeps, 'projects' | 'evidence'>;
  input: z.infer<typeof evidenceRefInputSchema>;
}): Promise<StoredEvidence> {
  const project = await requireOwnedProject(ctx.projects, input.accountId, input.projectId);
  const doc = await ctx.evidence.findInProject(project._id, input.evidenceId);
  if (!doc) throw new AppError('EVIDENCE_NOT_FOUND');
  return toStoredEvidence(doc);
}

export const getEvidence = (deps: ResearchDeps) =>
  procedure.input(evidenceRefInputSchema).query(({ input }) => getEvidenceHandler({ ctx: deps, input }));
