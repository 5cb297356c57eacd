import { storedEvidenceSchema, getProjectEvidenceInput } from '@vrs/contracts';
import { protectedProcedure } from '../../trpc';
import { authenticatedErrors } from '../errors';

export const getProjectEvidence = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/projects/{projectId}/evidence/{evidenceId}',
      operationId: 'getProjectEvidence',
      tags: ['Projects'],
      summary: 'Get one saved evidence item',
      protect: true,
      errorResponses: [...authenticatedErrors, 404, 422],
    },
  })
  .input(getProjectEvidenceInput)
  .output(storedEvidenceSchema)
  .query(({ ctx, input }) => ctx.services.research.evidence.get.query({ accountId: ctx.principal.accountId, ...input }));
