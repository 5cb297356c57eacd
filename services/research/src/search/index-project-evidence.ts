import type { EvidenceRepo } from '../repo/evidence-repo';
import type { ProjectsRepo } from '../repo/projects-repo';

export type IndexOutcome =
  | { kind: 'indexed'; marked: number; indexVersion: number }
  /** The project is not in this store. */
  | { kind: 'no-project' }
  /** None of the evidence is in the project. */
  | { kind: 'nothing-marked' };

/**
 * Makes evidence searchable on every replica: marks the documents (the given ids, or all of the
 * project's) with the project's next index version, then publishes that version with a
 * compare-and-set. Marking BEFORE the version is visible lets a search cache trust "everything marked
 * up to the version I read is in the store"; a lost race re-marks under a newer version, so running it
 * again is harmless. Throws after `maxAttempts` lost races.
 */
export async function indexProjectEvidence(
  repos: { projects: ProjectsRepo; evidence: EvidenceRepo },
  projectId: string,
  evidenceIds: string[] | 'all',
  maxAttempts = 20,
): Promise<IndexOutcome> {
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const project = await repos.projects.findById(projectId);
    if (!project) return { kind: 'no-project' };
    const indexVersion = project.indexVersion + 1;
    const marked =
      evidenceIds === 'all'
        ? await repos.evidence.markAllIndexed(projectId, indexVersion)
        : await repos.evidence.markIndexed(projectId, evidenceIds, indexVersion);
    if (marked === 0) return { kind: 'nothing-marked' };
    if (await repos.projects.advanceIndexVersion(projectId, project.indexVersion)) return { kind: 'indexed', marked, indexVersion };
  }
  throw new Error(`indexing evidence of project ${projectId} lost ${maxAttempts} version races`);
}

/**
 * Makes a removal visible to every replica, after the documents are deleted: a new index version
 * marked as a reset, so each cached index built before it is rebuilt from the store on its next
 * search (a mark can say "changed", never "gone"). Throws after `maxAttempts` lost races.
 */
export async function resetProjectIndex(repos: { projects: ProjectsRepo }, projectId: string, maxAttempts = 20): Promise<void> {
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const project = await repos.projects.findById(projectId);
    if (!project) return;
    if (await repos.projects.advanceIndexVersion(projectId, project.indexVersion, { reset: true })) return;
  }
  throw new Error(`resetting the index of project ${projectId} lost ${maxAttempts} version races`);
}
