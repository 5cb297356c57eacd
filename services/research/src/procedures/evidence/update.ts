import { updateEvidenceInputSchema, type StoredEvidence } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { z } from 'zod';
import type { ResearchDeps } from '../../research-deps';
import { indexProjectEvidence } from '../../search/index-project-evidence';
import { requireOwnedProject } from '../projects/require-owned-project';
import { toStoredEvidence } from './to-stored-evidence';

const nothingToChange = 'Send at least one of text, entityId, startMs.';

/**
 * Changes a saved item in place and re-indexes it before answering (marked for every replica,
 * replaced in this process's index), so a search right after finds the new text, never the old.
 */
export async function updateEvidenceHandler({
  ctx,
  input,
}: {
  ctx: Pick<ResearchDeps, 'projects' | 'evidence' | 'search'>;
  input: z.infer<typeof updateEvidenceInputSchema>;
}): Promise<StoredEvidence> {
  const { accountId, projectId, evidenceId, ...changes } = input;
  if (Object.values(changes).every((value) => value === undefined)) {
    throw new AppError('VALIDATION_FAILED', nothingToChange, { issues: [{ path: '', message: nothingToChange, code: 'empty_update' }] });
  }
  const project = await requireOwnedProject(ctx.projects, accountId, projectId);
  const doc = await ctx.evidence.update(project._id, evidenceId, changes);
  if (!doc) throw new AppError('EVIDENCE_NOT_FOUND');
  const outcome = await indexProjectEvidence(ctx, project._id, [doc._id]);
  if (outcome.kind === 'indexed') await ctx.search.indexed(project._id, [doc._id], outcome.indexVersion - 1);
  return toStoredEvidence(doc);
}

export const updateEvidence = (deps: ResearchDeps) =>
  procedure.input(updateEvidenceInputSchema).mutation(({ input }) => updateEvidenceHandler({ ctx: deps, input }));
