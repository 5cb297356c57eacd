import { projectSchema, updateProjectInput } from '@vrs/contracts';
import { protectedProcedure } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const updateProject = protectedProcedure
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/projects/{projectId}',
      operationId: 'updateProject',
      tags: ['Projects'],
      summary: 'Rename a project',
      protect: true,
      errorResponses: [...authenticatedErrors, 404, 422],
    },
  })
  .input(updateProjectInput)
  .output(projectSchema)
  .mutation(({ ctx, input }) => ctx.services.research.projects.rename.mutate({ accountId: ctx.principal.accountId, ...input }));
