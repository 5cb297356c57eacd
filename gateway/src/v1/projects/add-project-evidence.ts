import { addEvidenceResultSchema, addProjectEvidenceInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { meteredErrors } from '../errors';

export const addProjectEvidence = protectedOperation({
  method: 'POST',
  path: '/projects/{projectId}/evidence',
  operationId: 'addProjectEvidence',
  tags: ['Projects'],
  summary: 'Save material into a project',
  description:
    'Stores 1-100 items and indexes them for search (searchable within moments). An item whose `sourceKey` already exists in the project updates that item (same id) instead of adding a copy.',
  errorResponses: [...meteredErrors, 404, 422],
})
  .input(addProjectEvidenceInput)
  .output(addEvidenceResultSchema)
  .mutation(({ ctx, input }) =>
    ctx.services.research.evidence.add.mutate({ accountId: ctx.principal.accountId, projectId: input.projectId, items: input.items }),
  );
