import { evidenceRefInputSchema, type Deleted } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { ResearchDeps } from '../../research-deps';
import { resetProjectIndex } from '../../search/index-project-evidence';
import { requireOwnedProject } from '../projects/require-owned-project';

/** Removes a saved item; once this answers, no search of any replica finds it (ADR 0020). */
export const deleteEvidence = (deps: ResearchDeps) =>
  procedure.input(evidenceRefInputSchema).mutation(async ({ input }): Promise<Deleted> => {
    const project = await requireOwnedProject(deps.projects, input.accountId, input.projectId);
    if (!(await deps.evidence.deleteOne(project._id, input.evidenceId))) throw new AppError('EVIDENCE_NOT_FOUND');
    await resetProjectIndex(deps, project._id);
    return { id: input.evidenceId, deleted: true };
  });
