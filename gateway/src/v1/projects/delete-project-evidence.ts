import { deletedSchema, deleteProjectEvidenceInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const deleteProjectEvidence = protectedOperation({
  method: 'DELETE',
  path: '/projects/{projectId}/evidence/{evidenceId}',
  operationId: 'deleteProjectEvidence',
  tags: ['Projects'],
  summary: 'Delete a saved evidence item',
  description: 'Search no longer finds it once this answers. Deleting it again is a 404.',
  errorResponses: [...authenticatedErrors, 404, 422],
})
  .input(deleteProjectEvidenceInput)
  .output(deletedSchema)
  .mutation(({ ctx, input }) => ctx.services.research.evidence.delete.mutate({ accountId: ctx.principal.accountId, ...input }));
