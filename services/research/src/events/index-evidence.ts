import type { researchEvidenceAdded } from '@vrs/contracts';
import type { EventHandler } from '@vrs/bus';
import { requestLogFields, type Logger } from '@vrs/kit';
import type { EvidenceRepo } from '../repo/evidence-repo';
import type { ProjectsRepo } from '../repo/projects-repo';
import type { EvidenceSearch } from '../search/evidence-search';
import { indexProjectEvidence } from '../search/index-project-evidence';

export interface IndexEvidenceDeps {
  projects: ProjectsRepo;
  evidence: EvidenceRepo;
  search: EvidenceSearch;
  logger: Logger;
}

/**
 * Indexes the evidence an `evidence added` event names: marks it in the store (ADR 0003), then puts
 * it in this process's search index at once, so it is searchable without waiting for a search to
 * catch up. A lost run of races, or a failing index, hands the event back (it throws).
 */
export function createIndexEvidenceHandler(deps: IndexEvidenceDeps): EventHandler<typeof researchEvidenceAdded> {
  const { logger } = deps;
  return async ({ data }, context) => {
    const { projectId, evidenceIds } = data;
    const outcome = await indexProjectEvidence(deps, projectId, evidenceIds);
    if (outcome.kind === 'indexed') {
      await deps.search.indexed(projectId, evidenceIds, outcome.indexVersion - 1);
      logger.info(
        { projectId, indexed: outcome.marked, indexVersion: outcome.indexVersion, ...requestLogFields(context) },
        'evidence indexed',
      );
    } else {
      logger.warn(
        { projectId, evidenceIds: evidenceIds.length, ...requestLogFields(context) },
        outcome.kind === 'no-project'
          ? 'evidence added to a project this store does not have; acknowledged without indexing'
          : 'none of the added evidence is in this store; acknowledged without indexing',
      );
    }
  };
}
