import type { researchEvidenceAdded } from '@vrs/contracts';
import type { EventHandler } from '@vrs/bus';
import type { Logger } from '@vrs/kit';
import type { EvidenceRepo } from '../repo/evidence-repo';
import type { ProjectsRepo } from '../repo/projects-repo';

export interface IndexEvidenceDeps {
  projects: ProjectsRepo;
  evidence: EvidenceRepo;
  logger: Logger;
  /** Lost compare-and-set races before giving the event back for redelivery. */
  maxAttempts?: number;
}

/**
 * Makes added evidence searchable on every replica: marks the documents with the project's next
 * index version, then publishes that version on the project with a compare-and-set. Marking BEFORE
 * the version becomes visible is what lets a search cache trust "everything marked up to the
 * version I read is in the store"; an indexer that loses the race re-marks with a newer version.
 * Idempotent: running it again for the same ids only marks them again under a newer version, and
 * caches reload the same content.
 */
export function createIndexEvidenceHandler(deps: IndexEvidenceDeps): EventHandler<typeof researchEvidenceAdded> {
  const { projects, evidence, logger, maxAttempts = 20 } = deps;
  return async ({ data }) => {
    const { projectId, evidenceIds } = data;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const project = await projects.findById(projectId);
      if (!project) {
        logger.warn(
          { projectId, evidenceIds: evidenceIds.length },
          'evidence added to a project this store does not have; acknowledged without indexing',
        );
        return;
      }
      const marked = await evidence.markIndexed(projectId, evidenceIds, project.indexVersion + 1);
      if (marked === 0) {
        logger.warn(
          { projectId, evidenceIds: evidenceIds.length },
          'none of the added evidence is in this store; acknowledged without indexing',
        );
        return;
      }
      if (await projects.advanceIndexVersion(projectId, project.indexVersion)) {
        logger.info({ projectId, indexed: marked, indexVersion: project.indexVersion + 1 }, 'evidence indexed');
        return;
      }
    }
    // Every attempt lost to other indexers of this project; throwing hands the event back for later.
    throw new Error(`indexing evidence of project ${projectId} lost ${maxAttempts} version races`);
  };
}
