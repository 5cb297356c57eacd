import { listProjectsInputSchema, type Project } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { ProjectDoc, ProjectsRepo } from '../../repo/projects-repo';
import type { ResearchDeps } from '../../research-deps';
import { findOwnedProject } from './require-owned-project';
import { toProject } from './to-project';

const invalidCursorMessage = 'startingAfter must be the id of one of your projects (the last one of the previous page).';

/** The project a cursor names. Unknown and foreign ids get the same answer, so a cursor cannot probe for other accounts' projects. */
async function cursorProject(projects: ProjectsRepo, accountId: string, startingAfter: string): Promise<ProjectDoc> {
  const project = await findOwnedProject(projects, accountId, startingAfter);
  if (!project) {
    throw new AppError('VALIDATION_FAILED', invalidCursorMessage, {
      issues: [{ path: 'startingAfter', message: invalidCursorMessage, code: 'invalid_cursor' }],
    });
  }
  return project;
}

/** The caller's projects, newest first, paged with `limit` + `startingAfter` (ADR 0004). */
export const listProjects = ({ projects }: ResearchDeps) =>
  procedure.input(listProjectsInputSchema).query(async ({ input }): Promise<{ projects: Project[]; hasMore: boolean }> => {
    const after = input.startingAfter === undefined ? undefined : await cursorProject(projects, input.accountId, input.startingAfter);
    const page = await projects.listOwned(input.accountId, input.limit, after);
    return { projects: page.projects.map(toProject), hasMore: page.hasMore };
  });
