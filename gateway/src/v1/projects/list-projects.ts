import { projectListSchema, listProjectsInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const listProjects = protectedOperation({
  method: 'GET',
  path: '/projects',
  operationId: 'listProjects',
  tags: ['Projects'],
  summary: "List the caller's projects",
  description: 'Newest first. Page with `limit` and `cursor`: pass each page’s `nextCursor` as `cursor` while `hasMore` is true.',
  errorResponses: [...authenticatedErrors, 422],
})
  .input(listProjectsInput)
  .output(projectListSchema)
  .query(({ ctx, input }) => ctx.services.research.projects.list.query({ accountId: ctx.principal.accountId, ...input }));
