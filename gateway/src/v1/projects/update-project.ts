import { projectSchema, updateProjectInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const updateProject = protectedOperation({
  method: 'PATCH',
  path: '/projects/{projectId}',
  operationId: 'updateProject',
  tags: ['Projects'],
  summary: 'Rename a project',
  errorResponses: [...authenticatedErrors, 404, 422],
})
  .input(updateProjectInput)
  .output(projectSchema)
  .mutation(({ ctx, input }) => ctx.services.research.projects.rename.mutate({ accountId: ctx.principal.accountId, ...input }));
