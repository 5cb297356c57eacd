import { listEvidenceInputSchema, type ListPage, type StoredEvidence } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import { mapPage } from '@vrs/store';
import type { ResearchDeps } from '../../research-deps';
import { requireOwnedProject } from '../projects/require-owned-project';
import { toStoredEvidence } from './to-stored-evidence';

/** The saved items of one of the caller's projects, newest first (ADR 0020). */
export const listEvidence = ({ projects, evidence }: ResearchDeps) =>
  procedure.input(listEvidenceInputSchema).query(async ({ input }): Promise<ListPage<StoredEvidence>> => {
    const project = await requireOwnedProject(projects, input.accountId, input.projectId);
    return mapPage(await evidence.page(project._id, input), toStoredEvidence);
  });
