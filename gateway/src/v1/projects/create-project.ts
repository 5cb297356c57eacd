import { projectSchema, createProjectInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { meteredErrors } from '../errors';

export const createProject = protectedOperation({
  method: 'POST',
  path: '/projects',
  operationId: 'createProject',
  tags: ['Projects'],
  summary: 'Create a project',
  errorResponses: [...meteredErrors, 422],
})
  .input(createProjectInput)
  .output(projectSchema)
  .mutation(({ ctx, input }) => ctx.services.research.projects.create.mutate({ accountId: ctx.principal.accountId, name: input.name }));
