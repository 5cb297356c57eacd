import { evidenceRefInputSchema, type StoredEvidence } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { ResearchDeps } from '../../research-deps';
import { requireOwnedProject } from '../projects/require-owned-project';
import { toStoredEvidence } from './to-stored-evidence';

/** One saved item of one of the caller's projects; anyone else's is EVIDENCE_NOT_FOUND. */
export const getEvidence = ({ projects, evidence }: ResearchDeps) =>
  procedure.input(evidenceRefInputSchema).query(async ({ input }): Promise<StoredEvidence> => {
    const project = await requireOwnedProject(projects, input.accountId, input.projectId);
    const doc = await evidence.findInProject(project._id, input.evidenceId);
    if (!doc) throw new AppError('EVIDENCE_NOT_FOUND');
    return toStoredEvidence(doc);
  });
