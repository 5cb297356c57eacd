import { AppError } from '@vrs/kit';
import type { ProjectDoc, ProjectsRepo } from '../../repo/projects-repo';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The caller's project or null. Project ids are UUIDs, so anything else is answered without a store read. */
export async function findOwnedProject(projects: ProjectsRepo, accountId: string, projectId: string): Promise<ProjectDoc | null> {
  return uuidPattern.test(projectId) ? projects.findOwned(accountId, projectId) : null;
}

/**
 * The caller's project, or PROJECT_NOT_FOUND: another account's project gets the same answer as an
 * unknown id, so nobody learns that it exists.
 */
export async function requireOwnedProject(projects: ProjectsRepo, accountId: string, projectId: string): Promise<ProjectDoc> {
  const project = await findOwnedProject(projects, accountId, projectId);
  if (!project) throw new AppError('PROJECT_NOT_FOUND');
  return project;
}
