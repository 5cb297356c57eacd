import { projectSchema, getProjectInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const getProject = protectedOperation({
  method: 'GET',
  path: '/projects/{projectId}',
  operationId: 'getProject',
  tags: ['Projects'],
  summary: 'Get a project',
  errorResponses: [...authenticatedErrors, 404, 422],
})
  .input(getProjectInput)
  .output(projectSchema)
  .query(({ ctx, input }) => ctx.services.research.projects.get.query({ accountId: ctx.principal.accountId, projectId: input.projectId }));
