import { deletedSchema, deleteProjectInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const deleteProject = protectedOperation({
  method: 'DELETE',
  path: '/projects/{projectId}',
  operationId: 'deleteProject',
  tags: ['Projects'],
  summary: 'Delete a project and everything saved in it',
  description:
    'Removes the project, its evidence and search index, its import jobs (a running one stops before its next video) and its exports with their files. Answers and reports made from it stay. Deleting it again is a 404.',
  errorResponses: [...authenticatedErrors, 404, 422],
})
  .input(deleteProjectInput)
  .output(deletedSchema)
  .mutation(({ ctx, input }) => ctx.services.research.projects.delete.mutate({ accountId: ctx.principal.accountId, ...input }));
