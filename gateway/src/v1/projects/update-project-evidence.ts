import { storedEvidenceSchema, updateProjectEvidenceInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { meteredErrors } from '../errors';

export const updateProjectEvidence = protectedOperation({
  method: 'PATCH',
  path: '/projects/{projectId}/evidence/{evidenceId}',
  operationId: 'updateProjectEvidence',
  tags: ['Projects'],
  summary: 'Change a saved evidence item',
  description:
    'Each field sent replaces the item’s; `null` removes `entityId` or `startMs`. The id and `sourceKey` stay. Search finds the new text, and no longer the old, as soon as this answers. A later import of the same unit replaces the item again.',
  errorResponses: [...meteredErrors, 404, 422],
})
  .input(updateProjectEvidenceInput)
  .output(storedEvidenceSchema)
  .mutation(({ ctx, input }) => ctx.services.research.evidence.update.mutate({ accountId: ctx.principal.accountId, ...input }));
