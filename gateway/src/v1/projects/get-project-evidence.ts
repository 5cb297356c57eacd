import { storedEvidenceSchema, getProjectEvidenceInput } from '@vrs/contracts';
import { protectedOperation } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const getProjectEvidence = protectedOperation({
  method: 'GET',
  path: '/projects/{projectId}/evidence/{evidenceId}',
  operationId: 'getProjectEvidence',
  tags: ['Projects'],
  summary: 'Get one saved evidence item',
  errorResponses: [...authenticatedErrors, 404, 422],
})
  .input(getProjectEvidenceInput)
  .output(storedEvidenceSchema)
  .query(({ ctx, input }) => ctx.services.research.evidence.get.query({ accountId: ctx.principal.accountId, ...input }));
